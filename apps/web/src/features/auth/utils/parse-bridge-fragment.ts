export interface BridgeTokens {
  accessToken: string;
  refreshToken: string;
  deviceId: string;
}

/** Reads `#accessToken=…&refreshToken=…&deviceId=…`; a fragment never reaches server logs. */
export function parseBridgeFragment(hash: string): BridgeTokens | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const accessToken = params.get('accessToken') ?? params.get('access_token');
  const refreshToken = params.get('refreshToken') ?? params.get('refresh_token');
  const deviceId = params.get('deviceId') ?? params.get('device_id');
  if (!accessToken || !refreshToken || !deviceId) return null;
  return { accessToken, refreshToken, deviceId };
}
