import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api';
import { ConfirmModal } from './modals';
import { ReasonModal } from './reason-modal';

function renderReason(props: Partial<Parameters<typeof ReasonModal>[0]> = {}) {
  const onConfirm = props.onConfirm ?? vi.fn(async () => {});
  const onClose = vi.fn();
  render(
    <MantineProvider env="test">
      <ReasonModal opened onClose={onClose} title="Put on hold" onConfirm={onConfirm} {...props} />
    </MantineProvider>,
  );
  return { onConfirm, onClose };
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
