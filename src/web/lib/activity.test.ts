import { afterEach, describe, expect, it, vi } from 'vitest';
import { ATTENDED_FOR_MS } from '../../domain/session-activity';
import { watchActivity } from './activity';

describe('watchActivity', () => {
  let clock = 0;
  const now = () => clock;
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    clock = 0;
  });
  const start = () => {
    const watch = watchActivity(window, now);
    stop = watch.stop;
    return watch;
  };

  it('counts the page opening as the reader: attended until the limit has passed, then not', () => {
    const watch = start();
    clock = ATTENDED_FOR_MS;
    expect(watch.unattended()).toBe(false);
    clock = ATTENDED_FOR_MS + 1;
    expect(watch.unattended()).toBe(true);
  });

  it.each(['pointerdown', 'keydown', 'touchstart', 'wheel', 'focus'])(
    'a %s makes requests the reader’s again',
    (type) => {
      const watch = start();
      clock = 5 * ATTENDED_FOR_MS;
      expect(watch.unattended()).toBe(true);
      window.dispatchEvent(new Event(type));
      expect(watch.unattended()).toBe(false);
      clock += ATTENDED_FOR_MS + 1;
      expect(watch.unattended()).toBe(true);
    },
  );

  it('coming back to the tab counts; the tab being hidden does not', () => {
    const watch = start();
    clock = 5 * ATTENDED_FOR_MS;
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(watch.unattended()).toBe(true);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(watch.unattended()).toBe(false);
    visibility.mockRestore();
  });

  it('stops listening when stopped', () => {
    const watch = start();
    watch.stop();
    clock = 5 * ATTENDED_FOR_MS;
    window.dispatchEvent(new Event('pointerdown'));
    expect(watch.unattended()).toBe(true);
  });
});
