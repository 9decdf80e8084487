import { BarChart } from '@mui/x-charts/BarChart';
import { useTheme } from '@mui/material';
import type { UsagePoint } from '../../types';

// The chart itself, in a chunk of its own: @mui/x-charts is loaded only by the pages that draw
// usage (the workspace and team pages), through React.lazy in UsageCard.

export type UsageMetric = 'cpu_core_hours' | 'memory_gib_hours';

export interface UsageBarChartProps {
  series: UsagePoint[];
  metric: UsageMetric;
  /** The metric's name with its unit, for the axis and the tooltip. */
  label: string;
  /** A period's start as the axis shows it. */
  formatPeriod: (start: string) => string;
  formatValue: (value: number) => string;
}

const UsageBarChart = ({ series, metric, label, formatPeriod, formatValue }: UsageBarChartProps) => {
  const theme = useTheme();
  return (
    <BarChart
      height={220}
      margin={{ left: 0, right: 8, top: 8, bottom: 0 }}
      xAxis={[{ scaleType: 'band', data: series.map((point) => point.start), valueFormatter: formatPeriod, tickLabelMinGap: 12 }]}
      yAxis={[{ width: 48, valueFormatter: (value: number) => formatValue(value) }]}
      series={[
        {
          data: series.map((point) => point[metric]),
          label,
          color: metric === 'cpu_core_hours' ? theme.palette.primary.main : theme.palette.secondary.main,
          valueFormatter: (value) => (value === null ? '' : formatValue(value)),
        },
      ]}
      hideLegend
    />
  );
};

export default UsageBarChart;
