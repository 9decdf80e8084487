import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { Database, Request } from '../db/schema.js';
import { type Locale, mailLocale } from '../i18n/messages.js';
import { enqueueMail, enqueueMails } from '../mail/outbox.js';
import { requestCreatedMail, requestDecidedMail } from '../mail/templates.js';
import { findUserById } from '../users/users.js';
import { type PresentedRequest, presentRequests } from './presenter.js';
import { whoMayDecide } from './routing.js';

// Mail about requests: outbox rows (mail/outbox.ts) written in the transaction that stores the
// request or its decision (`trx`), so that a change that rolls back mails nobody and one that
// commits always mails; the caller kicks the outbox after the commit.

/** "join the team “Edge Computing Lab”" ("rejoindre l’équipe « Edge Computing Lab »"), from the presented request. */
export function describeRequest(request: PresentedRequest, locale: Locale = 'en'): string {
  const object = request.object;
  if (locale === 'fr') {
    const team = request.team ? ` dans l’équipe « ${request.team.fullname} »` : '';
    switch (request.type) {
      case 'CreateTeam':
        return `créer l’équipe « ${object.fullname ?? object.name} » (${object.name})`;
      case 'JoinTeam':
        return `rejoindre l’équipe « ${object.fullname ?? object.name} »`;
      case 'CreateWorkspace':
        return `créer l’espace de travail « ${object.label ?? object.name} » (${object.name})${team}`;
      case 'JoinWorkspace':
        return `rejoindre l’espace de travail « ${object.label ?? object.name} »${team}`;
      case 'RenewWorkspace':
        return `renouveler l’espace de travail « ${object.label ?? object.name} »${team}${renewalLength(request, 'fr')}`;
      case 'RenewTeam':
        return `renouveler l’équipe « ${object.fullname ?? object.name} »`;
      case 'QuotaIncrease':
        return `augmenter le quota de l’espace de travail « ${object.label ?? object.name} »${team}${quotaAsked(request)}`;
    }
  }
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
    case 'RenewWorkspace':
      return `renew the workspace “${object.label ?? object.name}”${team}${renewalLength(request, 'en')}`;
    case 'RenewTeam':
      return `renew the team “${object.fullname ?? object.name}”`;
    case 'QuotaIncrease':
      return `raise the quota of the workspace “${object.label ?? object.name}”${team}${quotaAsked(request)}`;
  }
}

/** " for 90 days" / " pour 90 jours" (a renewal's length, from its data). */
function renewalLength(request: PresentedRequest, locale: Locale): string {
  const days = (request.data as { days?: unknown }).days;
  if (typeof days !== 'number') return '';
  return locale === 'fr' ? ` pour ${days} jours` : ` for ${days} days`;
}

/** " (cpu 16, memory 32Gi)": what a quota request asks, in the quantities' own notation. */
function quotaAsked(request: PresentedRequest): string {
  const asked = (request.data as { quota?: Record<string, unknown> }).quota ?? {};
  const parts = Object.entries(asked).filter(([, value]) => value !== null && value !== undefined).map(([key, value]) => `${key} ${String(value)}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** Where the requester goes after a decision: the team or workspace when approved, else the profile. */
export function decisionLink(appUrl: string, request: Request): string {
  if (request.status === 'Approved') {
    if ((request.type === 'CreateTeam' || request.type === 'JoinTeam' || request.type === 'RenewTeam') && request.team_id !== null) return `${appUrl}/teams/${request.team_id}`;
    if (request.workspace_id !== null) return `${appUrl}/workspaces/${request.workspace_id}`;
  }
  return `${appUrl}/profile`;
}

/** In the request's transaction: a mail to everyone who may decide the new pending request, with a link to the requests page. */
export async function notifyDeciders(trx: Kysely<Database>, config: Pick<Config, 'appUrl'>, request: Request): Promise<void> {
  const [presented] = await presentRequests(trx, [request], null);
  const deciders = await whoMayDecide(trx, request);
  await enqueueMails(
    trx,
    deciders.map((decider) => {
      // Each decider in their own language.
      const locale = mailLocale(decider);
      return {
        to: decider.email,
        ...requestCreatedMail({
          firstname: decider.firstname,
          requesterName: presented.user?.name ?? (locale === 'fr' ? 'Un utilisateur' : 'A user'),
          what: describeRequest(presented, locale),
          message: request.message,
          link: `${config.appUrl}/requests`,
          locale,
        }),
      };
    }),
  );
}

/** In the decision's transaction: a mail to the requester that their request was approved or denied. */
export async function notifyRequester(trx: Kysely<Database>, config: Pick<Config, 'appUrl'>, request: Request): Promise<void> {
  const requester = await findUserById(trx, request.user_id);
  if (!requester || requester.enabled !== 1) return;
  const [presented] = await presentRequests(trx, [request], null);
  const locale = mailLocale(requester);
  const mail = requestDecidedMail({
    locale,
    firstname: requester.firstname,
    what: describeRequest(presented, locale),
    approved: request.status === 'Approved',
    deciderName: presented.decided_by?.name ?? null,
    decisionMessage: request.decision_message,
    link: decisionLink(config.appUrl, request),
  });
  await enqueueMail(trx, { to: requester.email, ...mail });
}
