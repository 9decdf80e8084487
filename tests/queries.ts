import { screen } from '@testing-library/react';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Label text as react-admin renders it: the label, plus " *" (aria-hidden) when required. */
export const labelled = (name: string) => new RegExp(`^${escape(name)}(\\s*\\*)?$`);

/** The input labelled `name` (exactly, ignoring the required asterisk). */
export const field = (name: string) => screen.getByLabelText(labelled(name));
export const findField = (name: string) => screen.findByLabelText(labelled(name));

/** The helper text under an input: where react-admin shows its validation error. */
export const errorUnder = (name: string): string => {
  const describedBy = field(name).getAttribute('aria-describedby');
  const text = describedBy ? document.getElementById(describedBy.split(' ')[0]!)?.textContent ?? '' : '';
  return text.replace(/\u200b/g, '').trim();
};
