import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { consoleTopics } from './channel.ts';
import { streamConsoleEvents } from './stream.ts';

export function consoleEventRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/console/events',
      tag: 'Console',
      summary:
        'Server-sent events telling that the company\'s records moved: `event: change`, `data: {"topics": […]}` ' +
        `with topics among ${consoleTopics.join(', ')}; no data of any record, whatever the role: refetch them. ` +
        'The first event is `ready`; a comment every 20 s keeps the stream open',
      // Every role a console session has, and the company's keys that read: the stream tells topics, no record.
      roles: roles.guestReaders,
      produces: ['text/event-stream'],
      errors: ['TOO_MANY_STREAMS'],
      handle: ({ req, res, caller }) => streamConsoleEvents(ctx, caller, req, res),
    }),
  ];
}
