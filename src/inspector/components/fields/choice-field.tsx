import { Dropdown, Field, Option } from "@fluentui/react-components";

/** Props of `ChoiceField`. */
export interface IChoiceFieldProps<T extends string> {
  label: string;
  /** The options, each with the value a choice holds (a key, or for resolutions the name) and the name shown. */
  options: readonly { value: T; name: string }[];
  value: T | null;
  onChange: (value: T) => void;
  /** The dropdown's `data-testid`. */
  testId?: string;
  /** The field's class (to grow in a row). */
  className?: string;
}

/** A labelled dropdown of named options (HDRI modes, mesh qualities, resolutions, export types). */
export function ChoiceField<T extends string>({ label, options, value, onChange, testId, className }: IChoiceFieldProps<T>) {
  return (
    <Field label={label} size="small" className={className}>
      <Dropdown
        size="small"
        value={options.find((o) => o.value === value)?.name ?? value ?? ""}
        selectedOptions={value != null ? [value] : []}
        onOptionSelect={(_, d) => d.optionValue && onChange(d.optionValue as T)}
        data-testid={testId}
      >
        {options.map((o) => (
          <Option key={o.value} value={o.value}>
            {o.name}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
}

/** Dropdown options of the spec's keyed lists (HDRI modes, mesh qualities, export types). */
export const byKey = <T extends string>(list: readonly { key: T; name: string }[]) => list.map((e) => ({ value: e.key, name: e.name }));
