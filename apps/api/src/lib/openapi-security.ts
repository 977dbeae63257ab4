// The security requirements the OpenAPI document gives an operation. Routes name
// OPTIONAL_SESSION in their schema, so it lives beside the other shared pieces modules use rather
// than in the OpenAPI plugin, which reaches the modules through the route guard.

export type SecurityRequirement = Record<string, string[]>;

const SESSION: SecurityRequirement = { sessionToken: [], deviceId: [] };

/** For a public route that also reads a session when one is sent: nothing, or a session. */
export const OPTIONAL_SESSION: SecurityRequirement[] = [{}, SESSION];
