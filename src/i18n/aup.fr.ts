import type { aupMessages } from '../pages/onboarding/aupMessages';

/** The acceptable use policy in French (same sections and layout rules as aupMessages.ts). */
export const aupMessagesFr: typeof aupMessages = {
  title: 'Charte d’utilisation',
  version: 'Version 1.0',
  intro:
    'Cette charte encadre l’utilisation de la plateforme d’expérimentation partagée en edge computing (la « plateforme ») et de cette console par toute personne titulaire d’un compte. Elle complète les règles de votre propre organisation, qui continuent de s’appliquer. En l’acceptant, vous confirmez l’avoir lue et comprise, et vous vous engagez à la respecter.',
  sections: {
    purpose: {
      title: '1. Objet de la plateforme',
      body: 'La plateforme est un cluster Kubernetes distribué, constitué de machines (« nœuds ») fournies et exploitées par des organisations de recherche et d’enseignement. Elle sert à la recherche, à l’enseignement et à l’évaluation des technologies d’edge computing.\n\nC’est une plateforme expérimentale partagée, pas un service de production : la capacité, la disponibilité et la conservation des données sont assurées au mieux, et les expériences peuvent être interrompues pour maintenance ou pour protéger les autres utilisateurs.',
    },
    eligibility: {
      title: '2. Conditions d’accès',
      body: 'Les comptes sont attribués au personnel, aux chercheurs, aux enseignants et aux étudiants des organisations participantes, ainsi qu’aux collaborateurs invités, pour des activités liées à la recherche, à l’enseignement ou à l’exploitation de la plateforme.\n\nL’accès aux ressources d’une équipe et de ses espaces de travail est approuvé par les gestionnaires de l’équipe concernée. Les administrateurs de la plateforme peuvent refuser, suspendre ou fermer un compte qui ne remplit pas ces conditions.',
    },
    accounts: {
      title: '3. Comptes et identifiants',
      body: 'Un compte est personnel. Vous devez :\n- fournir des informations exactes vous concernant et les tenir à jour ;\n- garder secrets votre mot de passe, vos jetons d’accès et vos fichiers kubeconfig, et ne jamais les partager, les publier ni les enregistrer dans un dépôt de code ;\n- utiliser un mot de passe que vous n’utilisez nulle part ailleurs ;\n- révoquer un jeton d’accès dès qu’il n’est plus utile, et immédiatement s’il a pu être exposé ;\n- prévenir sans délai les administrateurs de la plateforme si vous soupçonnez que votre compte ou vos identifiants ont été compromis.\n\nVous êtes responsable de toute activité réalisée avec votre compte et vos identifiants.',
    },
    acceptable: {
      title: '4. Usages autorisés',
      body: 'La plateforme peut être utilisée pour :\n- des expériences de recherche, y compris des mesures, des bancs d’essai et des prototypes d’applications distribuées et edge ;\n- l’enseignement, les travaux pratiques et les projets d’étudiants encadrés par un membre d’une organisation participante ;\n- le développement et le test d’outils pour la plateforme elle-même.\n\nUtilisez les ressources des espaces de travail qui vous ont été attribués, dans la limite de leurs quotas, et supprimez les charges de travail, volumes et données dont vous n’avez plus besoin.',
    },
    prohibited: {
      title: '5. Usages interdits',
      body: 'Il est interdit :\n- d’utiliser la plateforme pour des services commerciaux, le minage de cryptomonnaies ou tout usage sans rapport avec la recherche ou l’enseignement ;\n- de tenter d’accéder à des espaces de travail, nœuds, données ou comptes qui ne vous ont pas été attribués, ou de sortir de l’isolation de votre espace de travail ;\n- de scanner, sonder ou attaquer la plateforme, ses nœuds ou tout autre réseau ou système, sauf si l’expérience a été convenue par écrit avec les administrateurs de la plateforme et les propriétaires des systèmes concernés ;\n- d’exécuter des logiciels qui envoient des messages non sollicités, propagent des logiciels malveillants ou participent à un déni de service ;\n- de stocker ou diffuser des contenus illégaux, portant atteinte à la propriété intellectuelle ou à la vie privée, ou injurieux ou harcelants ;\n- de dégrader délibérément le service pour les autres utilisateurs, ou de contourner les quotas, les limites ou la supervision.',
    },
    fairness: {
      title: '6. Partage équitable des ressources et quotas',
      body: 'Les ressources sont partagées entre de nombreuses équipes. Chaque espace de travail a des quotas et des limites de CPU, de mémoire, de stockage et de nombre de pods.\n\nNe demandez que ce dont votre expérience a besoin, ne laissez pas tourner de charges de travail inactives et planifiez les expériences importantes ou longues avec les gestionnaires de votre équipe. Les administrateurs peuvent arrêter les charges de travail qui menacent la stabilité du cluster ou l’accès équitable des autres utilisateurs, si possible après en avoir averti leurs propriétaires.',
    },
    nodes: {
      title: '7. Nœuds fournis',
      body: 'Si vous ajoutez un nœud à la plateforme, vous confirmez y être autorisé par son propriétaire et que sa connexion réseau peut être utilisée à cette fin.\n\nTenez à jour le système d’exploitation du nœud, ne modifiez pas les logiciels de la plateforme qui y sont installés, et prévenez les administrateurs avant de le retirer, de le déplacer ou de lui donner un autre usage. Des charges de travail d’autres utilisateurs peuvent s’exécuter sur un nœud que vous fournissez : vous ne devez ni les inspecter ni interférer avec elles.',
    },
    data: {
      title: '8. Données et vie privée',
      body: 'Ne stockez sur la plateforme ni données personnelles, ni données de santé, ni aucune autre donnée sensible, sauf si votre organisation a approuvé le traitement et que les garanties nécessaires sont en place. Vous restez responsable des données que vous apportez, y compris de leur base légale et de leur durée de conservation.\n\nLa plateforme conserve les informations de compte nécessaires à son fonctionnement (nom, adresse e-mail, organisation, appartenance aux équipes et aux espaces de travail, demandes) ainsi que le journal d’activité décrit ci-dessous. Ces informations servent uniquement à exploiter et sécuriser la plateforme ; elles ne sont ni vendues ni partagées à d’autres fins. Vous pouvez demander aux administrateurs une copie de vos données ou la suppression de votre compte.\n\nLa plateforme ne garantit pas de sauvegardes : gardez votre propre copie de tout ce que vous ne pouvez pas vous permettre de perdre.',
    },
    incidents: {
      title: '9. Incidents de sécurité',
      body: 'Signalez immédiatement aux administrateurs de la plateforme tout incident de sécurité, toute vulnérabilité ou tout soupçon d’abus, et n’essayez pas de l’exploiter ni de l’examiner plus avant par vous-même.\n\nPendant un incident, les administrateurs peuvent suspendre des comptes, des jetons, des charges de travail ou des nœuds pour le contenir. Vous êtes tenu de coopérer à l’enquête.',
    },
    monitoring: {
      title: '10. Supervision et journalisation',
      body: 'Pour exploiter la plateforme de façon sûre, celle-ci enregistre les actions importantes (par exemple les connexions, les demandes et les décisions prises, la création et la suppression de jetons, les changements d’état des nœuds) avec l’utilisateur concerné et l’heure, et collecte l’utilisation des ressources et les événements du cluster.\n\nCes enregistrements sont accessibles aux administrateurs de la plateforme, conservés pendant une durée limitée et utilisés uniquement pour l’exploitation, la sécurité, la comptabilité des ressources partagées et l’examen des abus.',
    },
    sanctions: {
      title: '11. Sanctions',
      body: 'Un manquement à cette charte peut entraîner, selon sa gravité, un avertissement, la suppression de charges de travail ou de données, la révocation de jetons, la suspension ou la fermeture du compte et l’information de votre organisation. Les activités illégales peuvent être signalées aux autorités compétentes.',
    },
    changes: {
      title: '12. Modifications de cette charte',
      body: 'Cette charte peut être mise à jour. Les modifications importantes vous seront annoncées dans la console ou par e-mail, et il pourra vous être demandé d’accepter la nouvelle version avant de continuer à utiliser la plateforme.',
    },
    contact: {
      title: '13. Contact',
      body: 'Les questions sur cette charte, les demandes concernant vos données et les signalements d’incidents s’adressent aux administrateurs de la plateforme, par le contact indiqué par votre organisation ou par l’équipe qui vous a invité.',
    },
  },
};
