import type { AppContext } from '../context.js';
import type { Request } from '../db/schema.js';
import { requestCreatedMail, requestDecidedMail } from '../mail/templates.js';
import { findUserById } from '../users/users.js';
import { type PresentedRequest, presentRequests } from './presenter.js';
import { whoMayDecide } from './routing.js';

// Mail about requests, sent in the background (context.tasks) after the change committed.

/** "join the team “Edge Computing Lab”", from the presented request. */
export function describeRequest(request: PresentedRequest): string {
  const object = request.object;
  const team = request.team ? ` in the team “${request.team.fullname}”` : '';
  switch (request.type) {
    case 'CreateTeam':
      return `create the team “${object.fullname ?? object.name}” (${object.name})`;
    case 'JoinTeam':
      return `join the team “${object.fullname ?? object.name}”`;
    case 'CreateWorkspace':
      return `create the workspace “${object.label ?? object.name}” (${object.name})${team}`;
    case 'JoinWorkspace':
      return `join the workspace “${object.label ?? object.name}”${team}`;
  }
}

/** Where the requester goes after a decision: the team or workspace when approved, else the profile. */
export function decisionLink(appUrl: string, request: Request): string {
  if (request.status === 'Approved') {
    if ((request.type === 'CreateTeam' || request.type === 'JoinTeam') && request.team_id !== null) return `${appUrl}/teams/${request.team_id}`;
    if (request.workspace_id !== null) return `${appUrl}/workspaces/${request.workspace_id}`;
  }
  return `${appUrl}/profile`;
}

/** Mails everyone who may decide a new pending request, with a link to the requests page. */
export function notifyDeciders(context: AppContext, request: Request): void {
  context.tasks.run('request mail to deciders', async () => {
    const [presented] = await presentRequests(context.db, [request], null);
    const deciders = await whoMayDecide(context.db, request);
    const what = describeRequest(presented);
    for (const decider of deciders) {
      const mail = requestCreatedMail({
        firstname: decider.firstname,
        requesterName: presented.user?.name ?? 'A user',
        what,
        message: request.message,
        link: `${context.config.appUrl}/requests`,
      });
      await context.mailer.send({ to: decider.email, ...mail });
    }
  });
}

/** Mails the requester that their request was approved or denied. */
export function notifyRequester(context: AppContext, request: Request): void {
  context.tasks.run('request decision mail', async () => {
    const requester = await findUserById(context.db, request.user_id);
    if (!requester || requester.enabled !== 1) return;
    const [presented] = await presentRequests(context.db, [request], null);
    const mail = requestDecidedMail({
      firstname: requester.firstname,
      what: describeRequest(presented),
      approved: request.status === 'Approved',
      deciderName: presented.decided_by?.name ?? null,
      decisionMessage: request.decision_message,
      link: decisionLink(context.config.appUrl, request),
    });
    await context.mailer.send({ to: requester.email, ...mail });
  });
}
