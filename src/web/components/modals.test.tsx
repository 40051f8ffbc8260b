import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api';
import { sessionQueryKey } from '../lib/session';
import { makeUser } from '../test/render';
import { ConfirmModal } from './modals';
import { ReasonModal } from './reason-modal';

const officer = makeUser({ id: '00000000-0000-4000-8000-0000000000a1', role: 'officer', username: 'olive' });

/** A query client with `user` signed in (drafts are kept per signed-in user). */
function clientFor(user = officer) {
  const client = new QueryClient();
  client.setQueryData(sessionQueryKey, { user, csrfToken: 'csrf' });
  return client;
}

function renderReason(props: Partial<Parameters<typeof ReasonModal>[0]> = {}, client = clientFor()) {
  const onConfirm = props.onConfirm ?? vi.fn(async () => {});
  const onClose = vi.fn();
  const ui = (opened: boolean) => (
    <QueryClientProvider client={client}>
      <MantineProvider env="test">
        <ReasonModal opened={opened} onClose={onClose} title="Put on hold" onConfirm={onConfirm} {...props} />
      </MantineProvider>
    </QueryClientProvider>
  );
  const view = render(ui(true));
  const reopen = () => {
    view.rerender(ui(false));
    view.rerender(ui(true));
  };
  return { onConfirm, onClose, reopen };
}

describe('ReasonModal', () => {
  it('requires a reason before calling anything', async () => {
    const { onConfirm, onClose } = renderReason();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('A reason is required.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/Reason/), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('A reason is required.')).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends the trimmed reason and closes on success', async () => {
    const { onConfirm, onClose } = renderReason();
    await userEvent.type(screen.getByLabelText(/Reason/), '  Documents unreadable  ');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onConfirm).toHaveBeenCalledWith('Documents unreadable');
  });

  it('shows the server error and stays open', async () => {
    const onConfirm = vi.fn(async () => {
      throw new ApiError({ code: 'ALREADY_DECIDED', message: 'x', status: 409 });
    });
    const { onClose } = renderReason({ onConfirm });
    await userEvent.type(screen.getByLabelText(/Reason/), 'Because');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This application has already been decided.');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('asks for confirmation first when confirmStep is given, and Back returns to the form', async () => {
    const { onConfirm } = renderReason({ confirmStep: (reason) => <p>Really? {reason}</p> });
    await userEvent.type(screen.getByLabelText(/Reason/), 'Fraud');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('Really? Fraud')).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect((screen.getByLabelText(/Reason/) as HTMLTextAreaElement).value).toBe('Fraud');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith('Fraud'));
  });

  it('runs the caller’s validation of extra fields', async () => {
    const { onConfirm } = renderReason({ validate: () => 'Pick a status.' });
    await userEvent.type(screen.getByLabelText(/Reason/), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByRole('alert').textContent).toBe('Pick a status.');
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

describe('ReasonModal keeps the reason typed (issue #32)', () => {
  const reasonBox = () => screen.getByLabelText(/Reason/) as HTMLTextAreaElement;

  it('puts it back when the modal opens again, and says so', async () => {
    const { reopen } = renderReason({ draftKey: 'reject:app-1' });
    expect(screen.queryByText('We kept what you typed.')).toBeNull();
    await userEvent.type(reasonBox(), 'Payslips do not match the stated income');
    reopen();
    await waitFor(() => expect(reasonBox().value).toBe('Payslips do not match the stated income'));
    expect(screen.getByText('We kept what you typed.')).toBeTruthy();
  });

  it('forgets it once the action is done', async () => {
    const { reopen } = renderReason({ draftKey: 'reject:app-2' });
    await userEvent.type(reasonBox(), 'Duplicate application');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    reopen();
    await waitFor(() => expect(reasonBox().value).toBe(''));
    expect(screen.queryByText('We kept what you typed.')).toBeNull();
  });

  it('keeps it when the action fails (the session ended): the modal opens with it again', async () => {
    const onConfirm = vi.fn(async () => {
      throw new ApiError({ code: 'UNAUTHENTICATED', message: 'x', status: 401 });
    });
    const { reopen } = renderReason({ draftKey: 'reject:app-3', onConfirm });
    await userEvent.type(reasonBox(), 'Selfie does not match the ID');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('alert');
    reopen();
    await waitFor(() => expect(reasonBox().value).toBe('Selfie does not match the ID'));
  });

  it('"Start over" empties it and forgets it', async () => {
    const onDraftDiscarded = vi.fn();
    const { reopen } = renderReason({ draftKey: 'reject:app-4', onDraftDiscarded });
    await userEvent.type(reasonBox(), 'Typo');
    reopen();
    await userEvent.click(await screen.findByRole('button', { name: 'Start over' }));
    expect(reasonBox().value).toBe('');
    expect(onDraftDiscarded).toHaveBeenCalled();
    expect(screen.queryByText('We kept what you typed.')).toBeNull();
    reopen();
    await waitFor(() => expect(reasonBox().value).toBe(''));
  });

  it('is kept per record and per user: another loan or another staff member starts empty', async () => {
    const first = renderReason({ draftKey: 'reject:app-5' });
    await userEvent.type(reasonBox(), 'Kept for app-5 only');
    first.reopen();
    await waitFor(() => expect(reasonBox().value).toBe('Kept for app-5 only'));
    document.body.innerHTML = '';
    renderReason({ draftKey: 'reject:app-6' });
    expect(reasonBox().value).toBe('');
    document.body.innerHTML = '';
    renderReason(
      { draftKey: 'reject:app-5' },
      clientFor(makeUser({ id: '00000000-0000-4000-8000-0000000000a2', role: 'officer', username: 'omar' })),
    );
    expect(reasonBox().value).toBe('');
  });

  it('keeps nothing without a draftKey', async () => {
    const { reopen } = renderReason();
    await userEvent.type(reasonBox(), 'Not kept');
    reopen();
    await waitFor(() => expect(reasonBox().value).toBe(''));
    expect(Object.keys(window.localStorage).filter((key) => key.startsWith('hiram.draft.'))).toEqual([]);
  });
});

describe('ConfirmModal', () => {
  it('runs the action and closes; Cancel only closes', async () => {
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    render(
      <MantineProvider env="test">
        <ConfirmModal opened onClose={onClose} title="Delete" message="Are you sure?" onConfirm={onConfirm} />
      </MantineProvider>,
    );
    expect(screen.getByText('Are you sure?')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onConfirm).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
