import { Button, Group, Input, Text } from '@mantine/core';
import { IconCircleCheck, IconEraser } from '@tabler/icons-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type SignaturePadType from 'signature_pad';
import classes from './signature-pad.module.css';
import type { SignatureValue } from './use-application-form';

/** SPEC §2.4: 150 px high; 600 px wide above a 768 px screen, else min(screen width − 40, 360). */
export const padHeight = 150;
export function padWidthFor(screenWidth: number): number {
  return screenWidth > 768 ? 600 : Math.max(200, Math.min(screenWidth - 40, 360));
}

function usePadWidth(): number {
  const [width, setWidth] = useState(() => padWidthFor(window.innerWidth));
  useEffect(() => {
    const update = () => setWidth(padWidthFor(window.innerWidth));
    window.addEventListener('resize', update);
    window.addEventListener('orientationchange', update);
    return () => {
      window.removeEventListener('resize', update);
      window.removeEventListener('orientationchange', update);
    };
  }, []);
  return width;
}

function dataUrlToBlob(dataUrl: string): Blob {
  const [head = '', data = ''] = dataUrl.split(',');
  const type = /data:([^;]+)/.exec(head)?.[1] ?? 'image/png';
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type });
}

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

type Snapshot = Omit<SignatureValue, 'sha256'>;

/**
 * The signature canvas (signature_pad, loaded only here). High-DPI aware: the bitmap is the CSS size
 * times devicePixelRatio. The latest PNG is the source of truth: after a resize (rotation) or a reload
 * it is drawn back, scaled down if the pad became narrower, so the drawing is not lost.
 */
export function SignaturePadField(props: {
  value: SignatureValue | null;
  disabled: boolean;
  /** Shown over the pad while it is disabled. */
  disabledReason?: string;
  error: string | null;
  label: string;
  onChange: (snapshot: Snapshot | null) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [pad, setPad] = useState<SignaturePadType | null>(null);
  const width = usePadWidth();
  const widthRef = useRef(width);
  widthRef.current = width;
  /** The PNG currently drawn on the canvas, so our own snapshots are not drawn a second time. */
  const drawn = useRef<Blob | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const value = props.value;

  /** Counts the borrower's "Try again" taps: each one loads the pad anew. */
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the reason to load again.
  useEffect(() => {
    let cancelled = false;
    // The pad's code arrives over the borrower's connection, and the canvas may be refused (a browser that
    // blocks canvas drawing): either way the borrower is told and can try again, instead of a pad that
    // never takes a stroke.
    import('signature_pad')
      .then(({ default: SignaturePad }) => {
        const canvas = canvasRef.current;
        if (cancelled || !canvas) return;
        const created = new SignaturePad(canvas, { penColor: '#14213d', minWidth: 0.8, maxWidth: 2.8 });
        created.addEventListener('endStroke', () => {
          const blob = dataUrlToBlob(created.toDataURL('image/png'));
          drawn.current = blob;
          onChange.current({ blob, width: widthRef.current, height: padHeight });
        });
        setPad(created);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [attempt]);
  useEffect(() => () => pad?.off(), [pad]);

  const draw = useCallback(async (pad: SignaturePadType, snapshot: Snapshot) => {
    const scale = Math.min(1, widthRef.current / snapshot.width, padHeight / snapshot.height);
    const url = await blobToDataUrl(snapshot.blob);
    await pad
      .fromDataURL(url, {
        ratio: Math.max(window.devicePixelRatio || 1, 1),
        width: snapshot.width * scale,
        height: snapshot.height * scale,
      })
      .catch(() => {});
  }, []);

  // Size the bitmap for the screen; setting width/height wipes the canvas, so the signature is redrawn.
  // biome-ignore lint/correctness/useExhaustiveDependencies: redraw on a new size or a loaded pad only, not on every stroke.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !pad) return;
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(padHeight * ratio);
    canvas.getContext('2d')?.scale(ratio, ratio);
    pad.clear();
    if (value) {
      drawn.current = value.blob;
      void draw(pad, value);
    }
  }, [pad, width]);

  // Follow the value from outside: a restored draft is drawn; a voided or cleared signature is wiped.
  useEffect(() => {
    if (!pad) return;
    if (!value) {
      if (drawn.current) pad.clear();
      drawn.current = null;
    } else if (value.blob !== drawn.current) {
      pad.clear();
      drawn.current = value.blob;
      void draw(pad, value);
    }
  }, [pad, value, draw]);

  useEffect(() => {
    if (!pad) return;
    if (props.disabled) pad.off();
    else pad.on();
  }, [pad, props.disabled]);

  const errorId = `${id}-error`;
  return (
    <Input.Wrapper label={props.label} error={props.error} errorProps={{ id: errorId }} labelProps={{ id }}>
      <Text size="xs" c="dimmed" mb={6}>
        {t('application.signature.hint')}
      </Text>
      <div className={classes.frame}>
        <div className={classes.box}>
          <canvas
            ref={canvasRef}
            className={classes.canvas}
            style={{ width, height: padHeight }}
            role="img"
            aria-labelledby={id}
            aria-describedby={props.error ? errorId : undefined}
            data-error={props.error ? true : undefined}
            data-signed={value ? true : undefined}
            data-ready={pad && !props.disabled ? true : undefined}
            data-testid="signature-pad"
          />
          <div className={classes.baseline} aria-hidden="true" />
          {failed ? (
            <div className={classes.overlay} role="alert">
              <Text size="sm">{t('application.signature.failed')}</Text>
              <Button
                variant="default"
                size="compact-sm"
                mt={6}
                onClick={() => {
                  setFailed(false);
                  setAttempt((n) => n + 1);
                }}
              >
                {t('common.retry')}
              </Button>
            </div>
          ) : props.disabled && props.disabledReason ? (
            <div className={classes.overlay}>
              <Text size="sm">{props.disabledReason}</Text>
            </div>
          ) : null}
        </div>
      </div>
      <Group justify="space-between" mt="xs" gap="xs">
        {value ? (
          <Text
            size="sm"
            c="green.8"
            fw={600}
            style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
          >
            <IconCircleCheck size={16} aria-hidden="true" />
            {t('application.signature.signed')}
          </Text>
        ) : (
          <span />
        )}
        <Button
          variant="default"
          size="compact-md"
          leftSection={<IconEraser size={16} />}
          onClick={() => {
            pad?.clear();
            drawn.current = null;
            onChange.current(null);
          }}
          // Nothing to clear on a pad that is still loading or could not start.
          disabled={props.disabled || !pad}
        >
          {t('application.signature.clear')}
        </Button>
      </Group>
    </Input.Wrapper>
  );
}
