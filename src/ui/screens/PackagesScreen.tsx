import { Box, Text } from 'ink';
import { rowSentence } from '../../present/speech';
import { layoutColumns, PACKAGE_COLUMNS, rowText } from '../../present/tables';
import { loaded } from '../../store/types';
import { LoadState } from '../components/LoadState';
import { TableRow } from '../components/SpokenRow';
import { useApp } from '../store-context';

export function PackagesScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const packages = useApp((s) => s.packages);
  const list = loaded(packages) ?? [];
  const laid = layoutColumns(PACKAGE_COLUMNS, width - 2, 1, { items: list, now: 0 });
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold> Packages</Text>
      <LoadState load={packages} what="packages" />
      <Text bold wrap="truncate" aria-hidden>
        {`  ${rowText(laid, null)}`}
      </Text>
      {list.slice(0, Math.max(0, height - 3)).map((p) => (
        <TableRow key={p.id} wrap="truncate" say={() => rowSentence(PACKAGE_COLUMNS, p)}>
          {`  ${rowText(laid, p)}`}
        </TableRow>
      ))}
    </Box>
  );
}
