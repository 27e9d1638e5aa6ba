// Worker threads start without the parent's TypeScript loader; register tsx here, then load the real thread code.
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./thread.ts');
export default run;
