/** Every console page as every role, in every language, at the phone's size (test/helpers/console-walk.ts). */
import { consoleSizes, walkConsole } from '../helpers/console-walk.ts';

walkConsole(consoleSizes.phone);
