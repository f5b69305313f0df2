import { Box, Text } from 'ink';
import { creditsText, fitWidth } from '../../domain/format';
import { loaded } from '../../store/types';
import { LoadState } from '../components/LoadState';
import { useApp } from '../store-context';

export function PackagesScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const packages = useApp((s) => s.packages);
  const list = loaded(packages) ?? [];
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold> Packages</Text>
      <LoadState load={packages} what="packages" />
      <Text bold wrap="truncate">
        {fitWidth('  NAME', 26)}
        {fitWidth('TYPE', 9)}
        {fitWidth('DURATION', 11)}
        {fitWidth('COST', 7, 'right')}
        {fitWidth('EXTRA CONN', 12, 'right')}
        {fitWidth('MIN BALANCE', 13, 'right')}
      </Text>
      {list.slice(0, Math.max(0, height - 3)).map((p) => (
        <Text key={p.id} wrap="truncate">
          {fitWidth(`  ${p.package_name}`, 26)}
          {fitWidth(p.is_trial ? 'trial' : 'premium', 9)}
          {fitWidth(
            p.is_trial ? `${p.duration} hours` : `${p.duration} month${p.duration === 1 ? '' : 's'}`,
            11,
          )}
          {fitWidth(creditsText(p.credits_cost), 7, 'right')}
          {fitWidth(creditsText(p.extra_connection_credits_cost), 12, 'right')}
          {fitWidth(creditsText(p.min_balance), 13, 'right')}
        </Text>
      ))}
    </Box>
  );
}
