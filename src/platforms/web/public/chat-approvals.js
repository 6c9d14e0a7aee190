// Tool calls waiting for a person, under the answer of their run: the exact arguments, Approve and Deny.
import { api, element, log, status } from './chat-dom.js';

/** A tool call waiting for a person: its tool and exact arguments, a reason field, Approve and Deny. */
function approvalSection(approval) {
  const section = element('section', 'approval');
  section.dataset.approval = approval.id;
  section.setAttribute('aria-label', `Approval needed: ${approval.tool}`);
  const title = element('p', 'approval-title');
  title.append('Approve this call of ', element('code', '', approval.tool), '?');
  // The model's arguments, as text (never HTML); a long text scrolls, and Tab reaches it.
  const args = element('pre', 'approval-args', approval.args);
  args.tabIndex = 0;
  args.setAttribute('aria-label', `Arguments of ${approval.tool}`);
  const label = element('label', 'approval-reason', 'Reason (optional, sent with Deny) ');
  const reason = element('input');
  reason.type = 'text';
  reason.maxLength = 1000;
  label.append(reason);
  const approve = element('button', 'approve', 'Approve');
  approve.type = 'button';
  const deny = element('button', 'deny secondary', 'Deny');
  deny.type = 'button';
  const said = element('p', 'approval-said');
  said.setAttribute('role', 'status');
  const press = async (yes) => {
    approve.disabled = true;
    deny.disabled = true;
    const body = yes ? { id: approval.id, approve: true } : { id: approval.id, approve: false };
    if (!yes && reason.value.trim()) body.reason = reason.value.trim();
    let result;
    try {
      result = await api('/api/approve', body);
    } catch {
      result = { status: 0, data: null };
    }
    const { status: code, data } = result;
    if (code === 200 && (data.status === 'approved' || data.status === 'denied')) {
      said.textContent = data.status === 'approved' ? 'Approved.' : 'Denied.';
      return;
    }
    said.textContent = data?.message ?? data?.error ?? 'That did not work; try again.';
    approve.disabled = data?.status === 'expired';
    deny.disabled = data?.status === 'expired';
  };
  approve.addEventListener('click', () => press(true));
  deny.addEventListener('click', () => press(false));
  // Enter in the reason field denies: the reason goes with Deny.
  reason.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.isComposing) {
      e.preventDefault();
      deny.click();
    }
  });
  const buttons = element('div', 'approval-buttons');
  buttons.append(approve, deny);
  section.append(title, args, label, buttons, said);
  return section;
}

/** What the header said when a call last started to wait. */
let approvalStatus = '';

/** Shows the calls of a run waiting for Approve or Deny under its answer, and says so in the placeholder. */
export function showApprovals(item, approvals) {
  let box = item.querySelector('.approvals');
  if (!box) {
    box = element('div', 'approvals');
    item.querySelector('.answer').after(box);
  }
  const waiting = new Set(approvals.map((a) => a.id));
  for (const section of [...box.children]) {
    if (!waiting.has(section.dataset.approval)) section.remove();
  }
  for (const approval of approvals) {
    if (box.querySelector(`[data-approval="${CSS.escape(approval.id)}"]`)) continue;
    box.append(approvalSection(approval));
    approvalStatus = `A tool call needs approval: ${approval.tool}.`;
    status.textContent = approvalStatus;
  }
  box.hidden = approvals.length === 0;
  // Once nothing on the page waits, the header stops saying something does.
  if (!log.querySelector('section.approval') && status.textContent === approvalStatus)
    status.textContent = '';
  item.dataset.waiting = approvals[0]?.waiting ?? '';
  const thinking = item.querySelector('.answer .body .thinking');
  if (thinking && item.querySelector('.answer').dataset.phase !== 'final') {
    thinking.textContent = item.dataset.waiting || 'Thinking…';
  }
}
