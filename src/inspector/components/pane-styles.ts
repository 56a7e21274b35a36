import { makeStyles, tokens } from "@fluentui/react-components";

/** Layout shared by the pane's sections, on the Inspector's Fluent tokens (light and dark alike). */
export const usePaneStyles = makeStyles({
  // The Inspector hosts a pane in a flex column that clips (overflow: hidden): the pane takes
  // the height it is given (min-height 0, not its content's) and scrolls inside it.
  pane: { display: "flex", flexDirection: "column", flex: "1 1 0", minHeight: 0, color: tokens.colorNeutralForeground1 },
  scroller: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    flex: "1 1 0",
    minHeight: 0,
    overflowX: "hidden",
    overflowY: "auto",
    paddingBottom: tokens.spacingVerticalL,
    ":focus-visible": {
      outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`,
      outlineOffset: `-${tokens.strokeWidthThick}`,
    },
  },
  section: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS, padding: `0 ${tokens.spacingHorizontalS}` },
  row: { display: "flex", alignItems: "center", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  spread: { display: "flex", alignItems: "center", justifyContent: "space-between", gap: tokens.spacingHorizontalS },
  grow: { flexGrow: 1, minWidth: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  danger: { color: tokens.colorPaletteRedForeground1 },
  card: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  thumb: {
    width: "96px",
    height: "48px",
    objectFit: "cover",
    borderRadius: tokens.borderRadiusSmall,
    flexShrink: 0,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  ellipsis: { overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
  code: {
    margin: 0,
    padding: tokens.spacingHorizontalXS,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: "pre-wrap",
    wordBreak: "break-all",
    backgroundColor: tokens.colorNeutralBackground3,
    userSelect: "all",
  },
  list: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS, margin: 0, padding: 0, listStyleType: "none" },
});
