import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { createContext, type FormEvent, type ReactNode, useContext, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslate, type Validator } from 'react-admin';
import { PasswordStrength } from '../../components/PasswordStrengthMeter';

// The logged-out forms, with their state kept here: the logged-out bundle loads neither
// react-admin's form machinery and inputs nor react-hook-form (21 kB gzip of /login). Same
// behaviour and markup as react-admin's Form, TextInput and PasswordInput, which these screens
// used: validation on submit, then of a field on each change once the form was submitted; the
// first refused field takes the focus; validator errors ({ message, args } translated) under the
// field, server field errors returned by onSubmit shown under their fields until the field
// changes; helper-text space reserved; the same MUI TextField.

/** The form's values by field name; a field nobody typed in is ''. */
export type AuthFormValues = Record<string, string>;
type SubmissionErrors = Record<string, unknown> | undefined | void;

/** A validator's refusal ({ message, args } or a translation key) or a server's message. */
interface FieldError {
  message: string;
  args?: Record<string, unknown>;
}

interface RegisteredField {
  validators: Validator | Validator[] | undefined;
  input: HTMLInputElement | null;
}

interface AuthFormState {
  values: AuthFormValues;
  errors: Readonly<Record<string, FieldError>>;
  setValue: (name: string, value: string) => void;
  /** Keeps `field` (its validators and input, updated in place) while the field is mounted. */
  register: (name: string, field: RegisteredField) => () => void;
}

const AuthFormContext = createContext<AuthFormState | null>(null);

const useAuthForm = (): AuthFormState => {
  const form = useContext(AuthFormContext);
  if (!form) throw new Error('An auth field rendered outside AuthForm');
  return form;
};

/**
 * The field's first refusal, or null. A check that cannot run (the password strength's code did
 * not load) refuses nothing: the server checks every field again, and the form must not go dead.
 */
const validateField = async (validators: RegisteredField['validators'], value: string, values: AuthFormValues): Promise<FieldError | null> => {
  for (const validator of [validators ?? []].flat()) {
    const error = await Promise.resolve()
      .then(() => validator(value, values, {}))
      .catch(() => undefined);
    if (error) return typeof error === 'string' ? { message: error } : (error as FieldError);
  }
  return null;
};

export interface AuthFormProps {
  onSubmit: (values: AuthFormValues) => Promise<SubmissionErrors> | SubmissionErrors;
  children: ReactNode;
}

export const AuthForm = ({ onSubmit, children }: AuthFormProps) => {
  const [values, setValues] = useState<AuthFormValues>({});
  const [errors, setErrors] = useState<Record<string, FieldError>>({});
  // Read by handlers between renders: the values as last typed, the fields in the order mounted.
  const latest = useRef<AuthFormValues>({});
  const fields = useRef(new Map<string, RegisteredField>());
  const submitted = useRef(false);
  // A field's check still running when the field changes again must not overwrite the newer one.
  const checks = useRef(new Map<string, number>());

  // Stable, so that a field registers once (the map keeps the order fields were mounted in).
  const [register] = useState(() => (name: string, field: RegisteredField) => {
    fields.current.set(name, field);
    return () => {
      if (fields.current.get(name) === field) fields.current.delete(name);
    };
  });

  const setError = (name: string, error: FieldError | null) =>
    setErrors((current) => {
      if (!error && !(name in current)) return current;
      const next = { ...current };
      if (error) next[name] = error;
      else delete next[name];
      return next;
    });

  const currentValues = (): AuthFormValues => Object.fromEntries([...fields.current.keys()].map((name) => [name, latest.current[name] ?? '']));

  const state: AuthFormState = {
    values,
    errors,
    setValue: (name, value) => {
      latest.current = { ...latest.current, [name]: value };
      setValues(latest.current);
      if (!submitted.current) return;
      const check = (checks.current.get(name) ?? 0) + 1;
      checks.current.set(name, check);
      void validateField(fields.current.get(name)?.validators, value, currentValues()).then((error) => {
        if (checks.current.get(name) === check) setError(name, error);
      });
    },
    register,
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitted.current = true;
    const submittedValues = currentValues();
    // Checks still running for single fields are overtaken by this one.
    for (const name of fields.current.keys()) checks.current.set(name, (checks.current.get(name) ?? 0) + 1);
    const refusals = await Promise.all(
      [...fields.current].map(async ([name, field]) => [name, await validateField(field.validators, submittedValues[name]!, submittedValues)] as const),
    );
    const refused = refusals.filter((entry): entry is readonly [string, FieldError] => entry[1] !== null);
    setErrors(Object.fromEntries(refused));
    if (refused.length > 0) {
      fields.current.get(refused[0]![0])?.input?.focus();
      return;
    }
    const serverErrors = await onSubmit(submittedValues);
    if (!serverErrors) return;
    setErrors(
      Object.fromEntries(
        Object.entries(serverErrors).map(([name, message]) => [name, { message: Array.isArray(message) ? message.join(' ') : String(message) }]),
      ),
    );
  };

  return (
    <AuthFormContext.Provider value={state}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        {children}
      </form>
    </AuthFormContext.Provider>
  );
};

export interface AuthTextFieldProps {
  source: string;
  /** Translation key of the label. */
  label: string;
  validate?: Validator | Validator[];
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  endAdornment?: ReactNode;
  size?: 'small' | 'medium';
}

export const AuthTextField = ({
  source,
  label: labelKey,
  validate,
  type = 'text',
  endAdornment,
  autoComplete,
  autoFocus,
  size,
}: AuthTextFieldProps) => {
  const translate = useTranslate();
  const id = useId();
  const form = useAuthForm();
  const registered = useRef<RegisteredField>({ validators: validate, input: null }).current;
  registered.validators = validate;
  const { register } = form;
  useLayoutEffect(() => register(source, registered), [register, source, registered]);
  const error = form.errors[source];
  const helperText: ReactNode = error ? (
    translate(error.message, { _: error.message, ...error.args })
  ) : (
    <span dangerouslySetInnerHTML={ZERO_WIDTH_SPACE} />
  );
  const label = <span>{translate(labelKey, { _: labelKey })}</span>;
  // MUI's TextField as it renders an outlined field (FormControl, InputLabel, OutlinedInput,
  // FormHelperText), without TextField itself, which brings Select, Menu and Modal along.
  // margin, size, fullWidth: react-admin's theme defaults for MuiFormControl, as for TextField.
  return (
    <FormControl
      className={`MuiTextField-root ra-input ra-input-${source}`}
      error={Boolean(error)}
      variant="outlined"
      size={size}
    >
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        name={source}
        value={form.values[source] ?? ''}
        onChange={(event) => form.setValue(source, event.target.value)}
        inputRef={(input: HTMLInputElement | null) => {
          registered.input = input;
        }}
        type={type}
        label={label}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        endAdornment={endAdornment}
        aria-describedby={`${id}-helper-text`}
      />
      <FormHelperText id={`${id}-helper-text`}>{helperText}</FormHelperText>
    </FormControl>
  );
};

const ZERO_WIDTH_SPACE = { __html: '&#8203;' };

/** A password with the show/hide button of react-admin's PasswordInput. */
export const AuthPasswordField = (props: Omit<AuthTextFieldProps, 'type' | 'endAdornment' | 'size'>) => {
  const translate = useTranslate();
  const [visible, setVisible] = useState(false);
  return (
    <AuthTextField
      {...props}
      type={visible ? 'text' : 'password'}
      size="small"
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            aria-label={translate(visible ? 'ra.input.password.toggle_visible' : 'ra.input.password.toggle_hidden')}
            onClick={() => setVisible(!visible)}
            size="small"
          >
            {visible ? <Visibility fontSize="small" /> : <VisibilityOff fontSize="small" />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
};

/**
 * The strength meter under a password field of the form (zxcvbn, as the server judges it), given
 * the form's fields that hold the person's own words; its advice gives way to the field's error.
 */
export const AuthPasswordStrength = ({ source = 'password', personFields = [] }: { source?: string; personFields?: readonly string[] }) => {
  const form = useAuthForm();
  const person = Object.fromEntries(personFields.map((field) => [field, form.values[field] ?? '']));
  return <PasswordStrength password={form.values[source] ?? ''} person={person} refused={Boolean(form.errors[source])} />;
};
