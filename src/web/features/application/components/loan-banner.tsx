import { ActionIcon, Paper, Text } from '@mantine/core';
import { useDocumentVisibility, useReducedMotion } from '@mantine/hooks';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import phonePicture from '../assets/banner-phone.svg?no-inline';
import termsPicture from '../assets/banner-terms.svg?no-inline';
import walletPicture from '../assets/banner-wallet.svg?no-inline';
import classes from './loan-banner.module.css';

/** SPEC §2.4, §6: the banner rotates every 6 s. */
export const bannerIntervalMs = 6000;

const slides = [
  { key: 'phone', src: phonePicture },
  { key: 'terms', src: termsPicture },
  { key: 'wallet', src: walletPicture },
] as const;

/**
 * Three pictures with a caption each. Rotation stops while the tab is hidden, does not start by itself
 * for people who asked for reduced motion, and can be paused (WCAG 2.2.2); a chosen picture gets its
 * full 6 s.
 */
export function LoanBanner() {
  const { t } = useTranslation();
  const reducedMotion = useReducedMotion();
  const visibility = useDocumentVisibility();
  const [index, setIndex] = useState(0);
  const [playChoice, setPlayChoice] = useState<boolean | null>(null);
  const playing = playChoice ?? !reducedMotion;
  const rotating = playing && visibility !== 'hidden';

  useEffect(() => {
    if (!rotating) return;
    const timer = setTimeout(() => setIndex((index + 1) % slides.length), bannerIntervalMs);
    return () => clearTimeout(timer);
  }, [rotating, index]);

  const slide = slides[index]!;
  return (
    <Paper
      withBorder
      radius="lg"
      className={classes.root}
      component="section"
      aria-roledescription={t('application.banner.kind')}
      aria-label={t('application.banner.label')}
    >
      <div className={classes.stage}>
        {slides.map((item, i) => (
          <img
            key={item.key}
            src={item.src}
            alt=""
            className={classes.slide}
            data-active={i === index || undefined}
            width={640}
            height={280}
            decoding="async"
            // The first slide shows at once and is the page's largest element (boot.js preloads it so too).
            fetchPriority={i === 0 ? 'high' : undefined}
          />
        ))}
      </div>
      <div className={classes.caption}>
        <div style={{ minWidth: 0 }} aria-live={rotating ? 'off' : 'polite'}>
          <Text fw={700} size="md" lh={1.35} className={classes.title}>
            {t(`application.banner.slides.${slide.key}.title`)}
          </Text>
          <Text size="sm" c="dimmed">
            {t(`application.banner.slides.${slide.key}.text`)}
          </Text>
        </div>
        <div className={classes.dots}>
          {slides.map((item, i) => (
            <button
              key={item.key}
              type="button"
              className={classes.dot}
              aria-current={i === index}
              aria-label={t('application.banner.show', { n: i + 1, total: slides.length })}
              onClick={() => setIndex(i)}
            />
          ))}
          <ActionIcon
            variant="subtle"
            color="gray"
            size="md"
            onClick={() => setPlayChoice(!playing)}
            aria-label={playing ? t('application.banner.pause') : t('application.banner.play')}
          >
            {playing ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
          </ActionIcon>
        </div>
      </div>
    </Paper>
  );
}
