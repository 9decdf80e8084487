import type { FieldValues } from 'react-hook-form';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { type ReactNode, useId, useState } from 'react';
import { FormProvider, useController, useForm } from 'react-hook-form';
import { useTranslate, type Validator } from 'react-admin';

// The logged-out forms (to keep it small, the logged-out bundle loads neither react-admin's form
// machinery nor its inputs). Same behaviour and markup as react-admin's Form, TextInput and
// PasswordInput, which these screens used: validation on submit then on change, validator
// errors ({ message, args } translated) under the field, server field errors returned by
// onSubmit shown under their fields, helper-text space reserved, the same MUI TextField.

type Values = FieldValues;
type SubmissionErrors = Record<string, unknown> | undefined | void;

export interface AuthFormProps {
  onSubmit: (values: Values) => Promise<SubmissionErrors> | SubmissionErrors;
  children: ReactNode;
}

export const AuthForm = ({ onSubmit, children }: AuthFormProps) => {
  const form = useForm({ criteriaMode: 'firstError', reValidateMode: 'onChange' });
  const submit = form.handleSubmit(async (values) => {
    const errors = await onSubmit(values);
    if (!errors) return;
    for (const [field, message] of Object.entries(errors)) {
      form.setError(field, { type: 'server', message: Array.isArray(message) ? message.join(' ') : String(message) });
    }
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate>
        {children}
      </form>
    </FormProvider>
  );
};

/** Marks validator errors ({ message, args }) apart from server messages (plain strings). */
const ENCODED = '@@validation@@';

const runValidators = async (validators: Validator | Validator[] | undefined, value: unknown, values: Values) => {
  for (const validator of [validators ?? []].flat()) {
    const error = await validator(value, values, {});
    if (error) return typeof error === 'string' ? error : `${ENCODED}${JSON.stringify(error)}`;
  }
  return true;
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
  const { field, fieldState } = useController({
    name: source,
    defaultValue: '',
    rules: { validate: (value, values) => runValidators(validate, value, values) },
  });
  const { ref, ...fieldProps } = field;
  const message = fieldState.error?.message;
  let helperText: ReactNode = <span dangerouslySetInnerHTML={ZERO_WIDTH_SPACE} />;
  if (message) {
    if (message.startsWith(ENCODED)) {
      const error = JSON.parse(message.slice(ENCODED.length)) as { message: string; args?: Record<string, unknown> };
      helperText = translate(error.message, { _: error.message, ...error.args });
    } else helperText = translate(message, { _: message });
  }
  const label = <span>{translate(labelKey, { _: labelKey })}</span>;
  // MUI's TextField as it renders an outlined field (FormControl, InputLabel, OutlinedInput,
  // FormHelperText), without TextField itself, which brings Select, Menu and Modal along.
  // margin, size, fullWidth: react-admin's theme defaults for MuiFormControl, as for TextField.
  return (
    <FormControl
      className={`MuiTextField-root ra-input ra-input-${source}`}
      error={fieldState.invalid}
      variant="outlined"
      size={size}
    >
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        {...fieldProps}
        inputRef={ref}
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
