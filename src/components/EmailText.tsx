import { Fragment, type ReactNode } from 'react';

/**
 * An email address that may break before its '@' and its dots when the column is narrow
 * ('grace.hopper' / '@computing' / '.example.org'), rather than anywhere in a word: pair it with
 * overflowWrap 'break-word' (not 'anywhere', which lets a table column or a grid track shrink
 * to one letter per line).
 */
export const breakableEmail = (email: string): ReactNode =>
  email.split(/(?=[@.])/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
