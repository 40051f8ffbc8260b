import { spawn } from 'node:child_process';

/**
 * Every metadata tag exiftool (an independent reader, not the library that wrote the file) finds in a
 * file, as `Group:Tag` → value. CI installs exiftool (.ci/run); a machine without it fails loudly here
 * rather than skipping the check.
 */
export function exifTags(file: Buffer): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn('exiftool', ['-json', '-G1', '-a', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.once('error', (error) =>
      reject(
        new Error(`exiftool is needed (Debian: apt-get install libimage-exiftool-perl): ${error.message}`),
      ),
    );
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`exiftool exited with ${code}: ${err}`));
      const [tags] = JSON.parse(out) as Record<string, unknown>[];
      resolve(tags ?? {});
    });
    child.stdin.end(file);
  });
}

/** Tags that can carry where, when or with what a picture was taken (EXIF, GPS, XMP, IPTC, maker notes). */
export function identifyingTags(tags: Record<string, unknown>): string[] {
  return Object.keys(tags).filter((key) =>
    /^(GPS|IFD\d|ExifIFD|InteropIFD|SubIFD|XMP|IPTC|MakerNotes|Photoshop|Canon|Nikon|Apple)|GPS/i.test(key),
  );
}
