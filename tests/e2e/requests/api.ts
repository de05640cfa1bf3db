import type { APIRequestContext } from '@playwright/test';

/** A GET as the signed-in user, answering the API's `data`. */
export const apiData = async <T>(
  request: APIRequestContext,
  accessToken: string,
  path: string,
  params?: Record<string, string>,
): Promise<T> => {
  const response = await request.get(path, {
    headers: { authorization: `Bearer ${accessToken}` },
    ...(params ? { params } : {}),
  });
  if (!response.ok()) throw new Error(`GET ${path} answered ${response.status()}`);
  return ((await response.json()) as { data: T }).data;
};

/** The signed-in user's classrooms, in the API's order (the first is the default one). */
export const apiClassrooms = async (request: APIRequestContext, accessToken: string) => {
  const company = await apiData<{ uuid: string }>(request, accessToken, '/api/v1/company');
  return apiData<{ uuid: string; name: string }[]>(
    request,
    accessToken,
    `/api/v1/companies/${company.uuid}/classrooms`,
  );
};

/** A POST as the signed-in user, answering the API's `data`. */
export const apiPostData = async <T>(
  request: APIRequestContext,
  accessToken: string,
  path: string,
  data?: unknown,
): Promise<T> => {
  const response = await request.post(path, {
    headers: { authorization: `Bearer ${accessToken}` },
    ...(data === undefined ? {} : { data }),
  });
  if (!response.ok()) throw new Error(`POST ${path} answered ${response.status()}`);
  return ((await response.json()) as { data: T }).data;
};
