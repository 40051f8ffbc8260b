import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { ComplaintAssignee, StaffComplaintDto } from '../../../../domain/schemas/complaints';
import { apiFetch } from '../../../lib/api';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { useStaffMutation } from '../../../lib/staff/use-staff-mutation';

const complaintKey = (id: string) => [...backOfficeKeys.all, 'complaint', id] as const;
const url = (id: string) => `/api/staff/complaints/${encodeURIComponent(id)}`;

/** One complaint with its whole thread (GET /api/staff/complaints/:id). */
export function useComplaint(id: string | null) {
  return useQuery({
    queryKey: complaintKey(id ?? ''),
    queryFn: ({ signal }) => apiFetch<StaffComplaintDto>(url(id!), { signal }),
    enabled: id !== null,
  });
}

/** Where staff see a complaint's picture (private; the session cookie goes with it). */
export const complaintPictureUrl = (id: string) => `${url(id)}/picture`;

/** Active officers and admins a complaint can be given to. */
export function useAssignees(enabled: boolean) {
  return useQuery({
    queryKey: [...backOfficeKeys.all, 'complaint-assignees'],
    queryFn: ({ signal }) =>
      apiFetch<{ assignees: ComplaintAssignee[] }>('/api/staff/complaints/assignees', { signal }),
    enabled,
  });
}

/** After a reply, an assignment or a resolution: the queue, the complaint and the dashboard's counts. */
function refreshAfterComplaint(queryClient: QueryClient, result?: StaffComplaintDto) {
  if (result) queryClient.setQueryData(complaintKey(result.id), result);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('complaints') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.dashboard }),
    result ? null : queryClient.invalidateQueries({ queryKey: [...backOfficeKeys.all, 'complaint'] }),
  ]);
}

const conflicts = ['COMPLAINT_RESOLVED', 'COMPLAINT_NOT_FOUND'] as const;

export function useReplyToComplaint() {
  return useStaffMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) =>
      apiFetch<StaffComplaintDto>(`${url(id)}/replies`, { method: 'POST', body: { message } }),
    refresh: refreshAfterComplaint,
    conflictCodes: conflicts,
  });
}

export function useAssignComplaint() {
  return useStaffMutation({
    mutationFn: ({ id, assigneeId }: { id: string; assigneeId: string }) =>
      apiFetch<StaffComplaintDto>(`${url(id)}/assign`, { method: 'POST', body: { assigneeId } }),
    refresh: refreshAfterComplaint,
    conflictCodes: conflicts,
  });
}

export function useResolveComplaint() {
  return useStaffMutation({
    mutationFn: ({ id, note }: { id: string; note: string }) =>
      apiFetch<StaffComplaintDto>(`${url(id)}/resolve`, { method: 'POST', body: { note } }),
    refresh: refreshAfterComplaint,
    conflictCodes: conflicts,
  });
}
