/**
 * Reads the staff event stream (`/api/staff/events`) as its text arrives in chunks: each complete event (up
 * to its blank line) that is a `pending` one adds its count to `counts`.
 */
export function collectPendingCounts(counts: number[]): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (/^event: pending$/m.test(block) && data) counts.push(JSON.parse(data).count);
      end = buffer.indexOf('\n\n');
    }
  };
}
