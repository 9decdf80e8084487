import type { TranslationMessages } from 'react-admin';

/**
 * The English messages of the screens a visitor meets before signing in, which the logged-out
 * bundle loads alone (the rest of en.ts is most of its weight; en.ts spreads these in for the
 * console). A key such a screen uses must be here: tests/i18nLoggedOut.test.ts checks every key
 * the logged-out bundle's modules name.
 */
export const loggedOutAppMessages = {
  app: {
    name: 'Testbed Console',
    sandbox: 'Sandbox cluster',
    sandbox_hint: 'This console is connected to the built-in sandbox cluster: workloads are simulated.',
    loading: 'Loading…',
    // A label before its value ('Team: Physics'); French puts a space before the colon.
    labelled: '%{label}:',
    skip_to_content: 'Skip to content',
    // The language menu (each language is named in its own language).
    language: 'Language',
    realtime: {
      request_created: 'A new request is waiting for your decision.',
      request_decided: 'One of your requests has been decided.',
      workspace_deleted: 'Workspace %{name} was deleted by a platform admin.',
      invitation_accepted: '%{email} accepted your invitation.',
      // Why the server ended a live subscription (its SubscriptionEnded event).
      session_ended: 'Your session has ended. Sign in again.',
      account_disabled: 'This account is disabled.',
    },
    menu: {
      label: 'Main menu',
      home: 'Console Home',
      tokens: 'Tokens',
      profile: 'Profile',
      requests: 'Requests',
      workspaces: 'Workspaces',
      no_workspaces: 'No workspaces',
      expand_all: 'Expand all',
      close_all: 'Close all',
      expand_team: 'Show the workspaces of %{name}',
      suspended: 'Suspended',
      suspended_team: '%{name} (suspended team)',
      suspended_workspace: '%{name} (suspended with its team)',
      resources: 'Nodes and access',
      admin: 'Admin',
      admin_teams: 'Teams',
      admin_workspaces: 'Workspaces',
      admin_users: 'Users',
      admin_nodes: 'Nodes',
      admin_activity: 'Activity',
      admin_policy: 'Usage policy',
      admin_usage: 'Usage',
      admin_lifecycle: 'What ends next',
      admin_settings: 'Lifecycle settings',
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
      retry: 'Try again',
    },
    // Confirmations of what cannot be undone: the name typed back before the button works.
    confirm: {
      type_name: 'Type %{name} to confirm',
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
      success: 'Your email address is verified.',
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
      success:
        'Your password has been updated. Every session and personal access token of the account has been revoked.',
      revoked_hint:
        'Log in again with the new password on each device. Scripts and tools that used a personal access token need a new one: create it on the Access tokens page.',
      login: 'Log in',
      request_new: 'Request a new reset link',
      unlinked:
        'These institutional identities, linked to the account with a password, were unlinked: %{names}. If they are yours, link them again from your profile.',
    },
    password_strength: {
      label: 'Password strength: %{level}',
      very_weak: 'very weak',
      weak: 'weak',
      fair: 'fair',
      strong: 'strong',
      very_strong: 'very strong',
      too_weak: 'The password is too easy to guess. %{feedback}',
    },
  },
  oidc: {
    sign_in_with: 'Sign in with %{name}',
    or: 'or',
    callback_title: 'Signing you in…',
    callback_failed: 'The sign-in could not be completed',
    linked: '%{name} is now linked to your account.',
    your_institution: 'your institution',
    // Why a sign-in or linking failed: the codes of the server's redirect (pages/oidc/oidcErrors.ts).
    errors: {
      expired: 'This sign-in was not started in this browser or has expired. Please start again.',
      unknown_provider: 'This sign-in provider is not configured.',
      provider_down: '%{name} cannot be reached right now. Try again later, or sign in with your email and password.',
      consent_denied: 'You did not allow %{name} to sign you in.',
      failed: 'The sign-in with %{name} failed. Please try again.',
      no_email: '%{name} did not give an email address, which an account needs.',
      invalid_email: '%{name} gave an email address that is not valid. Register with your email and a password instead.',
      email_unverified:
        '%{name} has not confirmed your email address, so no account can be made from it. Register with your email and a password, then link %{name} from your profile.',
      email_taken: 'An account with this email address already exists. Sign in with your password, then link %{name} from your profile.',
      linked_elsewhere: 'This %{name} account is already linked to another account.',
      account_disabled: 'This account is disabled.',
      unknown: 'The sign-in could not be completed. Please try again.',
    },
    switch_title: 'Switch accounts?',
    switch_intro: 'You are signed in as %{current}. This sign-in is for %{next}.',
    switch_continue: 'Continue as %{name}',
    switch_stay: 'Stay signed in as %{name}',
  },
  roles: {
    owner: 'Owner',
    manager: 'Manager',
    member: 'Member',
  },
  invitations: {
    landing: {
      title: 'Invitation',
      subtitle: 'Join a team on the testbed.',
      loading: 'Checking the invitation…',
      invalid_title: 'This invitation cannot be used',
      offer: '%{inviter} invites %{email} to join %{team} as %{role}.',
      offer_anonymous: '%{email} is invited to join %{team} as %{role}.',
      workspaces: 'Workspaces: %{names}',
      joining: 'Joining %{team}…',
      joined: 'You joined %{team}.',
      go_to_team: 'Go to the team',
      other_account: 'This invitation is for %{email}, but you are signed in as %{current}.',
      switch: 'Sign out and continue as %{email}',
      have_account: 'I have an account',
      new_account: 'I am new here',
      log_in: 'Log in and join',
      register: 'Create my account and join',
    },
  },
};

/**
 * react-admin's own messages that the logged-out screens use (the password field's button,
 * Required, the network error), as ra-language-english words them (the test holds them to it):
 * the whole of its messages would be as large as the screens' own.
 */
const loggedOutReactAdminMessages = {
  input: { password: { toggle_visible: 'Hide password', toggle_hidden: 'Show password' } },
  notification: { http_error: 'Server communication error' },
  validation: { required: 'Required' },
};

export const loggedOutEnglish = { ...loggedOutAppMessages, ra: loggedOutReactAdminMessages } as unknown as TranslationMessages;
