import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTermsResponse } from '../../../../domain/schemas/terms';
import { SectionCard } from '../../../components/section-card';
import { useFormat } from '../../../lib/format';
import { TermsFigures } from './terms-figures';

interface Statement {
  key: string;
  title: string;
  at: string | null;
  disclosure: Record<string, unknown>;
  sha256: string;
}

/**
 * The statement the borrower signed and each change accepted since (docs/decisions/018), each one openable
 * at any time with its figures and the SHA-256 of the exact terms it binds.
 */
export function SignedTerms({ terms }: { terms: MyTermsResponse }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [open, setOpen] = useState<Statement | null>(null);
  if (!terms.signed) return null;
  const statements: Statement[] = [
    {
      key: 'signed',
      title: t('wallet.terms.signed'),
      at: terms.signed.signedAt,
      disclosure: terms.signed.disclosure,
      sha256: terms.signed.disclosureSha256,
    },
    ...terms.accepted.map((c) => ({
      key: c.id,
      title: t(c.status === 'applied' ? 'wallet.terms.applied' : 'wallet.terms.acceptedChange'),
      at: c.decidedAt,
      disclosure: c.disclosure,
      sha256: c.disclosureSha256,
    })),
  ];
  return (
    <SectionCard titleId="signed-terms-title" title={t('wallet.terms.title')} titleMb="xs">
      <Stack gap="xs">
        {statements.map((s) => (
          <Group key={s.key} justify="space-between" wrap="nowrap" gap="xs">
            <div>
              <Text size="sm" fw={500}>
                {s.title}
              </Text>
              <Text size="xs" c="dimmed">
                {fmt.dateTime(s.at)}
              </Text>
            </div>
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => setOpen(s)}
              aria-label={`${t('wallet.terms.view')}: ${s.title}`}
            >
              {t('wallet.terms.view')}
            </Button>
          </Group>
        ))}
      </Stack>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open?.title} size="lg">
        {open ? (
          <Stack gap="sm">
            <Text size="sm">{fmt.dateTime(open.at)}</Text>
            <TermsFigures
              caption={t('wallet.terms.statementCaption')}
              columns={[{ label: t('wallet.terms.value'), disclosure: open.disclosure }]}
            />
            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {t('wallet.terms.hash', { hash: open.sha256 })}
            </Text>
          </Stack>
        ) : null}
      </Modal>
    </SectionCard>
  );
}
