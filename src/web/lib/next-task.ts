/**
 * Resolves in a new task, so that the browser can draw and answer input in between. A message rather than
 * setTimeout: nested timeouts are held back to 4 ms each.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
