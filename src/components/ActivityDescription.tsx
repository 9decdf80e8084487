import { useTranslate } from 'react-admin';

// The activity log is recorded in English (one audit trail for every reader); a known
// description is shown in the reader's language (i18n/activityDescriptions.ts), any other as
// recorded.

/** The words the server writes for a node's status in "status changed from … to …", as status keys. */
const NODE_STATUS_WORDS: Record<string, string> = { Running: 'ok', Warning: 'warning', Error: 'error' };
const STATUS_CHANGE = /^status changed from (\S+) to (\S+)$/;
/** A node agent's report: known words, a colon, then the agent's own message (kept as sent). */
const WITH_DETAIL = /^(installing|joined the cluster|installation failed): (.*)$/s;

export const useActivityDescription = () => {
  const translate = useTranslate();
  return (description: string): string => {
    const change = STATUS_CHANGE.exec(description);
    if (change) {
      const word = (status: string) => {
        const key = NODE_STATUS_WORDS[status] ?? status;
        return translate(`nodes.status.${key}`, { _: status });
      };
      return translate('activity_log.status_changed', { from: word(change[1]!), to: word(change[2]!) });
    }
    const detailed = WITH_DETAIL.exec(description);
    if (detailed) return translate('activity_log.with_detail', { what: translate(`activity_log.${detailed[1]}`), detail: detailed[2] });
    // Polyglot reads a dot as a level of the catalogue: such a description is shown as recorded.
    if (description.includes('.')) return description;
    return translate(`activity_log.${description}`, { _: description });
  };
};

export const ActivityDescription = ({ description }: { description: string }) => <>{useActivityDescription()(description)}</>;
