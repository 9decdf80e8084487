import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';
import { aupMessages } from '../pages/onboarding/aupMessages';

/**
 * The console's own English messages. Every string shown by the console goes through
 * translate(); a new language is a copy of this object (plus ra-language-xx) registered in
 * i18n/index.ts.
 */
export const appMessages = {
  app: {
    name: 'Testbed Console',
    sandbox: 'Sandbox cluster',
    sandbox_hint: 'This console is connected to the built-in sandbox cluster: workloads are simulated.',
    loading: 'Loading…',
    skip_to_content: 'Skip to content',
    menu: {
      home: 'Console Home',
      tokens: 'Tokens',
      profile: 'Profile',
      pending_requests: '%{smart_count} pending request |||| %{smart_count} pending requests',
    },
    action: {
      copy: 'Copy',
      copied: 'Copied',
      close: 'Close',
      cancel: 'Cancel',
      save: 'Save',
      edit: 'Edit',
      logout: 'Logout',
      submit: 'Submit',
    },
    validation: {
      invalid_email: 'Invalid email',
      invalid_url: 'Invalid URL',
      invalid_name: 'Invalid name',
    },
    error: {
      network: 'Cannot reach the server. Check your connection and try again.',
      no_token: 'The server did not return a session token.',
      user_load: 'Your account could not be loaded. Please log in again.',
      unexpected: 'Something went wrong. Please try again.',
    },
    not_found: {
      title: 'Unexpected Application Error!',
      body: 'There is nothing at %{path}. The page may have moved, or the link may be wrong.',
      back_home: 'Back to Console Home',
    },
  },

  auth: {
    tagline: 'A shared edge-computing testbed for research and teaching.',
    illustration_alt: 'Edge nodes connected to a shared cluster',
    back_to_login: 'Back to login',
    fields: {
      email: 'Email',
      password: 'Password',
      password_confirmation: 'Password confirmation',
      firstname: 'First name',
      lastname: 'Last name',
    },
    login: {
      title: 'Log in',
      subtitle: 'Use the email address and password of your testbed account.',
      submit: 'Login',
      forgot: 'Forgot password?',
      no_account: 'No account yet?',
      register: 'Register',
    },
    registration: {
      title: 'Create an account',
      subtitle: 'Accounts are for staff, researchers, teachers and students of participating organisations.',
      submit: 'Register',
      success_title: 'Thank you for registering!',
      success_body:
        'A validation email is on its way to %{email}. Open the link it contains to verify your address, then log in to finish setting up your account.',
      spam_hint: 'If it has not arrived in a few minutes, check your spam or junk folder.',
    },
    verify: {
      title: 'Email verification',
      progress: 'Verifying your email address…',
      success_title: 'Your email address is verified',
      continue: 'Continue to the console',
      login: 'Log in to continue',
      failed_title: 'This verification link cannot be used',
      failed_logged_in: 'Links expire after a while and only the latest one works. Ask for a new one below.',
      failed_logged_out: 'Links expire after a while and only the latest one works. Log in to request a new verification link.',
      resend: 'Send a new verification link',
      login_to_resend: 'Log in to request a new link',
    },
    forgot: {
      title: 'Forgot your password?',
      subtitle: 'Enter the email address of your account and we will send you a link to choose a new password.',
      submit: 'Send reset link',
      success_title: 'Check your inbox',
      success: 'We have emailed you instructions to reset your password.',
      spam_hint: 'The link is valid for 60 minutes. If the email does not arrive, check your spam or junk folder.',
    },
    reset: {
      title: 'Choose a new password',
      subtitle: 'Enter your new password twice.',
      submit: 'Update password',
      success_title: 'Password updated',
      success: 'Your password has been updated. You can now log in with it.',
      login: 'Log in',
      request_new: 'Request a new reset link',
    },
  },

  onboarding: {
    title: 'Finish setting up your account',
    welcome: 'Welcome, %{name}. Two steps remain before you can use the testbed.',
    steps: {
      verification: 'Verification',
      terms: 'Terms of service',
    },
    verification: {
      heading: 'Verify your email address',
      intro:
        'We need to confirm that %{email} belongs to you. Send yourself a verification link, then open it from your mailbox: this page moves on once the address is verified.',
      send: 'Send verification link',
      sent: 'A new verification link has been sent to your email address.',
      spam: 'Cannot find the email? Check your spam or junk folder, and make sure the address above is correct.',
      continue: 'I have verified — continue',
      not_yet: 'Your email address is not verified yet. Open the link from the latest email, then try again.',
    },
    terms: {
      heading: 'Accept the acceptable use policy',
      intro: 'Please read the acceptable use policy of the testbed. You need to accept it to use the console.',
      region: 'Acceptable use policy',
      agree: 'I have read and agree to the acceptable use policy',
      submit: 'Submit',
    },
    aup: aupMessages,
  },

  home: {
    title: 'Console Home',
    welcome: 'Welcome, %{name}',
    pending_requests:
      'One request is waiting for your decision. |||| %{smart_count} requests are waiting for your decision.',
    workspaces: {
      title: 'Your workspaces',
      empty: 'You are not a member of any workspace yet.',
      later: 'Creating and joining workspaces will be possible from this console in a coming version.',
    },
    nodes: {
      title: 'Your nodes',
      empty: 'You have not contributed any node yet.',
      later: 'Adding your own machines to the testbed will be possible from this console in a coming version.',
    },
    teams: {
      title: 'Your teams',
      empty: 'You do not belong to any team yet.',
      later: 'Creating and joining teams will be possible from this console in a coming version.',
    },
  },

  roles: {
    owner: 'Owner',
    manager: 'Manager',
    member: 'Member',
  },

  profile: {
    title: 'Profile',
    edit_title: 'Edit your profile',
    updated: 'Your profile has been updated.',
    admin: 'Platform admin',
    verified: 'Email verified',
    not_verified: 'Email not verified',
    avatar_alt: 'Avatar of %{name}',
    requests: {
      title: 'Your requests',
      empty: 'You have not made any request yet.',
      type: 'Type',
      object: 'Object',
      status: 'Status',
      created_at: 'Created',
    },
    tokens: {
      title: 'Access tokens',
    },
  },

  requests: {
    type: {
      CreateTeam: 'Create team',
      CreateWorkspace: 'Create workspace',
      JoinTeam: 'Join team',
      JoinWorkspace: 'Join workspace',
    },
    status: {
      Pending: 'Pending',
      Approved: 'Approved',
      Denied: 'Denied',
      Error: 'Error',
    },
  },

  resources: {
    tokens: {
      name: 'Access token |||| Tokens',
      fields: {
        name: 'Name',
        abilities: 'Abilities',
        created_at: 'Created',
        expires_at: 'Expires',
        last_used_at: 'Last used',
        expires_in_days: 'Expires in (days)',
      },
      never: 'Never',
      never_used: 'Never used',
      intro: 'Access tokens let scripts and tools call the testbed API on your behalf. Treat them like passwords.',
      empty: {
        title: 'No access tokens yet',
        body: 'Create one when a script or a tool needs to call the testbed API on your behalf.',
      },
      create: {
        title: 'Create an access token',
        intro: 'Give the token a name that tells you where it is used, for example the machine or the script.',
        expires_hint: 'From 1 to 365 days. Leave empty for a token that never expires.',
        submit: 'Create',
      },
      created: {
        title: 'Token created',
        warning: 'Copy this token now and keep it somewhere safe: it will not be shown again.',
        label: 'Access token',
        done: 'Done',
      },
      message: {
        delete_title: 'Delete the token "%{recordRepresentation}"?',
        delete_content: 'Programs using the token "%{recordRepresentation}" lose access at once. This cannot be undone.',
      },
      notifications: {
        deleted: 'Access token deleted',
      },
    },
  },
};

export const englishTranslation: TranslationMessages = {
  ...englishMessages,
  ...appMessages,
  ra: {
    ...englishMessages.ra,
  },
} as TranslationMessages;

export default englishTranslation;
