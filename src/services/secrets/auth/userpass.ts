// The userpass auth method: users with scrypt-hashed passwords and token settings; login at login/:username
// needs no token and answers an orphan token with metadata {username}.
import { badRequest, type Backend, type BackendContext } from '../contract.ts';
import type { Access } from './access.ts';
import { dispatch, existence, itemExists, listItemsRoute, readItem, routesHelp, type BackendRoute } from './backend-routes.ts';
import { stringField } from './fields.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { applyTokenSettings, emptyTokenSettings, tokenSettingsData, type TokenSettings } from './token-settings.ts';

interface User {
  username: string;
  passwordHash: string;
  token: TokenSettings;
}

const USERNAME = /^[a-z0-9_][a-z0-9_.-]*$/;

export function userpassBackend(access: Access, ctx: BackendContext): Backend {
  const users = ctx.storage.view('user/');

  const name = (raw: string) => {
    const username = raw.toLowerCase();
    if (!USERNAME.test(username)) throw badRequest(`invalid username "${raw}"`);
    return username;
  };

  const routes: BackendRoute[] = [
    {
      path: '/login/{username}',
      summary: 'Log in with a username and password.',
      pattern: /^login\/([^/]+)$/,
      operations: {
        update: async (req, m) => {
          const username = m[1].toLowerCase();
          const password = stringField(req.data, 'password');
          if (!password) throw badRequest('missing password');
          const user = await users.get<User>(username);
          if (!(await verifyPassword(password, user?.passwordHash)) || !user) throw badRequest('invalid username or password');
          return access.issueLoginToken(req, user.token, { meta: { username }, displayName: username });
        },
      },
    },
    listItemsRoute('/users', 'List users.', users),
    {
      path: '/users/{username}',
      summary: 'Read, write or delete a user.',
      pattern: /^users\/([^/]+)$/,
      exists: itemExists(users),
      operations: {
        read: async (_req, m) => {
          const user = await readItem<User>(users, m[1]);
          return { data: tokenSettingsData(user.token) };
        },
        create: async (req, m) => {
          const username = name(m[1]);
          const password = stringField(req.data, 'password');
          if (!password) throw badRequest('missing password');
          const token = applyTokenSettings(req.data, emptyTokenSettings());
          await users.put(username, { username, passwordHash: await hashPassword(password), token } satisfies User);
          return null;
        },
        update: async (req, m) => {
          const username = name(m[1]);
          return users.locked(username, async () => {
            const existing = await users.get<User>(username);
            const token = applyTokenSettings(req.data, existing?.token ?? emptyTokenSettings());
            const password = stringField(req.data, 'password');
            if (!existing && !password) throw badRequest('missing password');
            const passwordHash = password ? await hashPassword(password) : existing!.passwordHash;
            await users.put(username, { username, passwordHash, token } satisfies User);
            return null;
          });
        },
        delete: async (_req, m) => {
          await users.delete(m[1].toLowerCase());
          return null;
        },
      },
    },
    {
      path: '/users/{username}/password',
      summary: 'Change a user\'s password.',
      pattern: /^users\/([^/]+)\/password$/,
      operations: {
        update: async (req, m) => {
          const username = m[1].toLowerCase();
          const password = stringField(req.data, 'password');
          if (!password) throw badRequest('missing password');
          return users.locked(username, async () => {
            const user = await users.get<User>(username);
            if (!user) throw badRequest('username does not exist');
            await users.put(username, { ...user, passwordHash: await hashPassword(password) });
            return null;
          });
        },
      },
    },
    {
      path: '/users/{username}/policies',
      summary: 'Change a user\'s token policies.',
      pattern: /^users\/([^/]+)\/policies$/,
      operations: {
        update: async (req, m) => {
          const username = m[1].toLowerCase();
          return users.locked(username, async () => {
            const user = await users.get<User>(username);
            if (!user) throw badRequest('username does not exist');
            const policies = applyTokenSettings({ token_policies: req.data.token_policies ?? req.data.policies ?? [] }, user.token).policies;
            await users.put(username, { ...user, token: { ...user.token, policies } });
            return null;
          });
        },
      },
    },
  ];

  return {
    handle: (req) => dispatch(routes, req),
    help: () => routesHelp('Users authenticating with a username and password.', routes),
    exists: (req) => existence(routes, req),
    unauthenticatedPaths: ['login/*'],
  };
}
