import { Button, Caption1, mergeClasses } from "@fluentui/react-components";
import { ArrowUploadRegular, DismissRegular } from "@fluentui/react-icons";
import { useEffect, useRef, useState, type FunctionComponent } from "react";
import { usePaneStyles } from "../pane-styles.ts";

export interface IFilePickerProps {
  label: string;
  file: File | null;
  onChange: (file: File | null) => void;
  id: string;
}

/** Picks an image file: a button, the file's name and a small preview, and a clear button. */
export const FilePicker: FunctionComponent<IFilePickerProps> = ({ label, file, onChange, id }) => {
  const pane = usePaneStyles();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return (
    <div className={pane.row}>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        hidden
        data-testid={id}
        onChange={(e) => {
          onChange(e.target.files?.[0] ?? null);
          e.target.value = "";
        }}
      />
      <Button size="small" icon={<ArrowUploadRegular />} onClick={() => input.current?.click()}>
        {label}
      </Button>
      {file && (
        <>
          {preview && <img className={pane.thumb} src={preview} alt="" />}
          <Caption1 className={mergeClasses(pane.grow, pane.ellipsis)}>{file.name}</Caption1>
          <Button
            size="small"
            appearance="subtle"
            aria-label={`Remove ${file.name}`}
            icon={<DismissRegular />}
            onClick={() => onChange(null)}
          />
        </>
      )}
    </div>
  );
};
