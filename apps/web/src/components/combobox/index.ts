export { Combobox, type ComboboxItem, type ComboboxProps } from './combobox';
export { PersonCombobox, type PersonComboboxProps, type PersonOption } from './person-combobox';
