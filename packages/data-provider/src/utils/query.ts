import { PAGINATION } from '@ccp/schemas';
import type { CrudFilter, CrudOperators, CrudSort, Pagination } from '@refinedev/core';

// Turning Refine's list parameters into the API's query, failing loudly on what it cannot do.

/** Per field: the operators a resource accepts and the query key the API reads. */
export type FilterRules = Record<string, { operators: readonly CrudOperators[]; param: string }>;

const describeRules = (rules: FilterRules): string => {
  const entries = Object.entries(rules).map(
    ([field, rule]) => `${field} (${rule.operators.join(', ')})`,
  );
  return entries.length > 0 ? entries.join(', ') : 'none';
};

/**
 * The filters as query values by API key. Empty values (a cleared search box) are left out.
 * Unknown fields, operators and `or`/`and` groups throw, naming what the resource supports.
 */
export const readFilters = (
  resource: string,
  filters: readonly CrudFilter[] | undefined,
  rules: FilterRules,
): Record<string, unknown> => {
  const query: Record<string, unknown> = {};
  for (const filter of filters ?? []) {
    if (!('field' in filter)) {
      throw new Error(
        `The "${resource}" resource cannot combine filters with "${filter.operator}": the API takes one value per field. Supported filters: ${describeRules(rules)}.`,
      );
    }
    const rule = rules[filter.field];
    if (!rule || !rule.operators.includes(filter.operator)) {
      throw new Error(
        `The "${resource}" resource cannot filter by "${filter.field}" with "${filter.operator}". Supported filters: ${describeRules(rules)}.`,
      );
    }
    const value: unknown = filter.value;
    if (value === undefined || value === null || value === '') continue;
    query[rule.param] = value;
  }
  return query;
};

/** The API lists in a fixed order (newest first) and has no sort parameter. */
export const rejectSorters = (resource: string, sorters: readonly CrudSort[] | undefined): void => {
  if (sorters && sorters.length > 0) {
    const fields = sorters.map((sorter) => `${sorter.field} ${sorter.order}`).join(', ');
    throw new Error(
      `The "${resource}" resource cannot be sorted by the API (asked: ${fields}); it lists newest first. Sort in the UI instead (useTable: sorters.mode "off").`,
    );
  }
};

/** true/false, also as the strings a URL carries ("true", "1", ...). */
export const toBoolean = (name: string, value: unknown): boolean => {
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  throw new Error(`"${name}" must be true or false, got ${JSON.stringify(value)}.`);
};

/** True when Refine asks the server to paginate: its default, and what a missing mode means. */
export const isServerPagination = (pagination: Pagination | undefined): boolean =>
  pagination !== undefined && (pagination.mode ?? 'server') === 'server';

/** `page` and `per_page` for server pagination (pages count from 1); nothing otherwise. */
export const pageQuery = (
  resource: string,
  pagination: Pagination | undefined,
): { page?: number; per_page?: number } => {
  if (!pagination || !isServerPagination(pagination)) return {};
  const page = pagination.currentPage ?? 1;
  const perPage = pagination.pageSize ?? 10;
  if (!Number.isInteger(page) || page < 1) {
    throw new Error(`The "${resource}" pages count from 1; got currentPage ${page}.`);
  }
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > PAGINATION.maxPerPage) {
    throw new Error(
      `The "${resource}" page size must be 1 to ${PAGINATION.maxPerPage}; got pageSize ${perPage}.`,
    );
  }
  return { page, per_page: perPage };
};
