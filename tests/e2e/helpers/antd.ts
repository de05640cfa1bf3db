import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

// Ant Design widgets, found the way a user or a screen reader finds them. antd renders its
// markup in portals and keeps closed modals in the DOM (hidden), so these helpers say which.

/** An open antd Modal, by its title (antd labels the dialog with it). */
export const antdModal = (page: Page, title: string | RegExp): Locator =>
  page.getByRole('dialog', { name: title });

/** antd's × in the modal's corner (absent with `closable={false}`). */
export const antdModalCloseIcon = (modal: Locator): Locator => modal.locator('.ant-modal-close');

/** The modal's footer (its buttons), apart from the × in the corner. */
export const antdModalFooter = (modal: Locator): Locator => modal.locator('.ant-modal-footer');

/** An antd Alert inside `scope` with this text (error, warning, info alike). */
export const antdAlert = (scope: Page | Locator, text: string | RegExp): Locator =>
  scope.locator('.ant-alert').filter({ hasText: text });

/** An antd Checkbox by its label; its input is transparent on top of the box, so it takes clicks. */
export const antdCheckbox = (scope: Page | Locator, label: string | RegExp): Locator =>
  scope.getByRole('checkbox', { name: label });

/** Waits for antd's closing animation: the modal leaves the accessibility tree. */
export const expectAntdModalClosed = async (modal: Locator) => {
  await expect(modal).toBeHidden();
};

/**
 * Picks an option of an antd Select by its label. Its combobox input sits under the selection
 * text (and is 0-wide without search), so the click goes to the select's box.
 */
export const antdSelectOption = async (page: Page, combobox: Locator, option: string | RegExp) => {
  await combobox.locator('xpath=ancestor::div[contains(@class, "ant-select-selector")]').click();
  // The visible item: rc-select's accessible options name a multiple select's values, not labels.
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
};
