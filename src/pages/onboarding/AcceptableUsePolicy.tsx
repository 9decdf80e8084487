import { Box, Typography } from '@mui/material';
import { Fragment } from 'react';
import { useTranslate } from 'react-admin';
import { aupSectionKeys } from './aupMessages';

/** Renders a section body: blank lines separate paragraphs, "- " lines are list items. */
export const PolicyBody = ({ text }: { text: string }) => (
  <>
    {text.split(/\n\s*\n/).map((block, index) => {
      const lines = block.split('\n');
      const intro = lines.filter((line) => !line.startsWith('- '));
      const items = lines.filter((line) => line.startsWith('- '));
      return (
        <Fragment key={index}>
          {intro.length > 0 && (
            <Typography variant="body2" paragraph>
              {intro.join(' ')}
            </Typography>
          )}
          {items.length > 0 && (
            <Box component="ul" sx={{ mt: -1, mb: 2, pl: 3, '& li': { typography: 'body2', mb: 0.5 } }}>
              {items.map((item) => (
                <li key={item}>{item.slice(2)}</li>
              ))}
            </Box>
          )}
        </Fragment>
      );
    })}
  </>
);

/** The acceptable use policy of the testbed (text in i18n: onboarding.aup.*). */
export const AcceptableUsePolicy = () => {
  const translate = useTranslate();
  return (
    <Box component="article">
      <Typography variant="h6" component="h3">
        {translate('onboarding.aup.title')}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 2 }}>
        {translate('onboarding.aup.version')}
      </Typography>
      <Typography variant="body2" paragraph>
        {translate('onboarding.aup.intro')}
      </Typography>
      {aupSectionKeys.map((key) => (
        <Box component="section" key={key} sx={{ mt: 2 }}>
          <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600, mb: 1 }}>
            {translate(`onboarding.aup.sections.${key}.title`)}
          </Typography>
          <PolicyBody text={translate(`onboarding.aup.sections.${key}.body`)} />
        </Box>
      ))}
    </Box>
  );
};
