// The yardstick for start-up: the smallest Ink app, bundled the same way as linedesk.
import { render, Text } from 'ink';

const app = render(<Text>hello</Text>);
setTimeout(() => app.unmount(), 50);
