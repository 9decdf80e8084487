/**
 * The acceptable use policy, as translatable messages (English). Rendered by
 * AcceptableUsePolicy.tsx: each section has a title and a body where blank lines separate
 * paragraphs and lines starting with "- " are list items. Bump `version` when the text changes.
 */
export const aupSectionKeys = [
  'purpose',
  'eligibility',
  'accounts',
  'acceptable',
  'prohibited',
  'fairness',
  'nodes',
  'data',
  'incidents',
  'monitoring',
  'sanctions',
  'changes',
  'contact',
] as const;

export const aupMessages = {
  title: 'Acceptable use policy',
  version: 'Version 1.0',
  intro:
    'This policy governs the use of the shared edge-computing testbed (the "testbed") and of this console by every person who holds an account. It complements the rules of your own organisation, which continue to apply. By accepting it you confirm that you have read it, understood it and will follow it.',
  sections: {
    purpose: {
      title: '1. Purpose of the testbed',
      body: 'The testbed is a distributed Kubernetes cluster built from machines ("nodes") contributed and operated by research and teaching organisations. It exists to support research, teaching and the evaluation of edge-computing technologies.\n\nIt is a shared experimental platform, not a production service: capacity, availability and data durability are provided on a best-effort basis, and experiments may be interrupted for maintenance or to protect other users.',
    },
    eligibility: {
      title: '2. Eligibility',
      body: 'Accounts are granted to staff, researchers, teachers and students of participating organisations, and to invited collaborators, for activities related to research, teaching or the operation of the testbed.\n\nAccess to team and workspace resources is approved by the managers of the team concerned. The platform administrators may refuse, suspend or close an account that does not meet these conditions.',
    },
    accounts: {
      title: '3. Accounts and credentials',
      body: 'An account is personal. You must:\n- give accurate information about yourself and keep it up to date;\n- keep your password, access tokens and kubeconfig files secret, and never share them, publish them or commit them to a code repository;\n- use a password that you do not use elsewhere;\n- revoke an access token as soon as it is no longer needed, and immediately if it may have been exposed;\n- tell the platform administrators without delay if you suspect that your account or credentials have been compromised.\n\nYou are responsible for all activity carried out with your account and credentials.',
    },
    acceptable: {
      title: '4. Acceptable use',
      body: 'The testbed may be used for:\n- research experiments, including measurements, benchmarks and prototypes of distributed and edge applications;\n- teaching, practical work and student projects supervised by a member of a participating organisation;\n- development and testing of tools for the testbed itself.\n\nUse the resources of the workspaces you have been given, within their quotas, and clean up workloads, volumes and data you no longer need.',
    },
    prohibited: {
      title: '5. Prohibited use',
      body: 'You must not:\n- use the testbed for commercial services, cryptocurrency mining, or any purpose unrelated to research or teaching;\n- attempt to access workspaces, nodes, data or accounts you have not been granted, or to escape the isolation of your workspace;\n- scan, probe or attack the testbed, its nodes, or any other network or system, unless the experiment has been agreed in writing with the platform administrators and the owners of the systems concerned;\n- run software that sends unsolicited messages, spreads malware, or takes part in denial-of-service activity;\n- store or distribute content that is illegal, that infringes intellectual property or privacy rights, or that is offensive or harassing;\n- deliberately degrade the service for other users, or circumvent quotas, limits or monitoring.',
    },
    fairness: {
      title: '6. Resource fairness and quotas',
      body: 'Resources are shared between many teams. Each workspace has quotas and limits on CPU, memory, storage and the number of pods.\n\nRequest only what your experiment needs, do not leave idle workloads running, and schedule large or long experiments with your team managers. The administrators may stop workloads that endanger the stability of the cluster or the fair access of other users, if possible after warning their owners.',
    },
    nodes: {
      title: '7. Contributed nodes',
      body: 'If you add a node to the testbed you confirm that you are authorised by its owner to do so and that its network connection may be used for that purpose.\n\nKeep the operating system of the node up to date, do not tamper with the testbed software installed on it, and tell the administrators before you remove, move or re-purpose it. Workloads of other users may run on a node you contribute: you must not inspect or interfere with them.',
    },
    data: {
      title: '8. Data and privacy',
      body: 'Do not store personal data, health data or any other sensitive data on the testbed unless your organisation has approved the processing and the required safeguards are in place. You remain responsible for the data you bring, including its legal basis and its retention.\n\nThe testbed keeps the account information needed to run it (name, email, organisation, team and workspace memberships, requests) and the activity log described below. This information is used only to operate and secure the testbed and is not sold or shared for other purposes. You may ask the administrators for a copy or for the deletion of your account.\n\nThe testbed does not guarantee backups: keep your own copy of anything you cannot afford to lose.',
    },
    incidents: {
      title: '9. Security incidents',
      body: 'Report any security incident, vulnerability or suspected misuse to the platform administrators immediately, and do not try to exploit or investigate it further on your own.\n\nDuring an incident the administrators may suspend accounts, tokens, workloads or nodes to contain it. You are expected to cooperate with the investigation.',
    },
    monitoring: {
      title: '10. Monitoring and logging',
      body: 'To operate the testbed securely, the platform records significant actions (for example logins, requests and their decisions, token creation and deletion, node status changes) with the user concerned and the time, and collects resource usage and cluster events.\n\nThese records are accessible to the platform administrators, kept for a limited period, and used only for operation, security, accounting of shared resources and the investigation of misuse.',
    },
    sanctions: {
      title: '11. Sanctions',
      body: 'A breach of this policy may lead, depending on its seriousness, to a warning, the removal of workloads or data, the revocation of tokens, the suspension or closure of the account, and the notification of your organisation. Illegal activity may be reported to the competent authorities.',
    },
    changes: {
      title: '12. Changes to this policy',
      body: 'This policy may be updated. You will be told of significant changes through the console or by email, and may be asked to accept the new version before you continue to use the testbed.',
    },
    contact: {
      title: '13. Contact',
      body: 'Questions about this policy, requests about your data and incident reports go to the platform administrators of the testbed, through the contact given by your organisation or by the team that invited you.',
    },
  },
};
