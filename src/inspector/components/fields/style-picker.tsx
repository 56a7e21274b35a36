import {
  Badge,
  Caption1,
  Caption1Strong,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Spinner,
  Tab,
  TabList,
  tokens,
  Tooltip,
} from "@fluentui/react-components";
import { useState, type FunctionComponent } from "react";
import { styleInfo, styleModel, type Style } from "../../../api/index.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import type { ModelVersion } from "../../state/form/styles-state.ts";
import { ErrorView } from "../error-view.tsx";
import { useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";

const useStyles = makeStyles({
  scroller: {
    maxHeight: "280px",
    overflowY: "auto",
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    paddingRight: "2px",
  },
  grid: { display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(92px, 1fr))", gap: tokens.spacingHorizontalXS },
  card: {
    display: "flex",
    flexDirection: "column",
    gap: "2px",
    padding: "3px",
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    cursor: "pointer",
    textAlign: "left",
    ":hover": { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  selected: { border: `2px solid ${tokens.colorBrandStroke1}`, padding: "2px" },
  image: {
    width: "100%",
    aspectRatio: "2 / 1",
    objectFit: "cover",
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  badges: { display: "flex", gap: "2px", flexWrap: "wrap", minHeight: "16px" },
});

export interface IStylePickerProps {
  state: SkyboxPaneState;
  /** Only Model 4 styles (Edit and Image to Pano). */
  model4Only: boolean;
}

/** Styles grouped by model and family, with preview images and badges; Model 4 greyed out with the reason when the plan has none. */
export const StylePicker: FunctionComponent<IStylePickerProps> = ({ state, model4Only }) => {
  const classes = useStyles();
  const pane = usePaneStyles();
  const styles = useSlice(state.styles);
  const form = useSlice(state.form);
  const selected = state.styles.byId(form.styleId);
  const [browsed, setBrowsed] = useState<ModelVersion>(selected ? styleModel(selected) : 3);
  const model: ModelVersion = model4Only ? 4 : browsed;

  const choose = (style: Style) => {
    const variants = style.variants ?? [];
    const variantId = variants.some((v) => v.id === form.variantId) ? form.variantId : (variants[0]?.id ?? null);
    state.form.set({ styleId: style.id, variantId });
  };

  const model4Tab = (
    <Tab value={4} disabled={Boolean(styles.model4Blocked)} data-testid="skybox-model-4">
      Model 4
    </Tab>
  );
  return (
    <div className={pane.section} data-testid="skybox-style-picker">
      <div className={pane.spread}>
        <TabList size="small" selectedValue={model} onTabSelect={(_, d) => setBrowsed(d.value as ModelVersion)}>
          <Tab value={3} disabled={model4Only} data-testid="skybox-model-3">
            Model 3
          </Tab>
          {styles.model4Blocked ? (
            <Tooltip content={styles.model4Blocked} relationship="description">
              {model4Tab}
            </Tooltip>
          ) : (
            model4Tab
          )}
        </TabList>
        {styles.loading && <Spinner size="extra-tiny" />}
      </div>
      {styles.model4Blocked && (model === 4 || (selected && styleModel(selected) === 4)) && (
        <MessageBar intent="warning" layout="multiline" data-testid="skybox-model4-blocked">
          <MessageBarBody>Model 4 is unavailable: {styles.model4Blocked}</MessageBarBody>
        </MessageBar>
      )}
      <ErrorView error={styles.error} onDismiss={() => void state.styles.load()} id="skybox-styles-error" />
      <div className={classes.scroller}>
        {styles.families[model].map((family) => (
          <div key={family.id}>
            <Caption1Strong>{family.name}</Caption1Strong>
            <div className={classes.grid} role="radiogroup" aria-label={family.name}>
              {family.items.map((style) => (
                <StyleCard
                  key={style.id}
                  style={style}
                  selected={style.id === form.styleId}
                  disabled={model === 4 && Boolean(styles.model4Blocked)}
                  onSelect={() => choose(style)}
                />
              ))}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
};

interface IStyleCardProps {
  style: Style;
  selected: boolean;
  disabled: boolean;
  onSelect: () => void;
}

const StyleCard: FunctionComponent<IStyleCardProps> = ({ style, selected, disabled, onSelect }) => {
  const classes = useStyles();
  const pane = usePaneStyles();
  const { promptMax, negativeMax } = styleInfo(style);
  const limits = [promptMax && `prompt ≤ ${promptMax}`, negativeMax && `negative ≤ ${negativeMax}`].filter(Boolean).join(", ");
  return (
    <Tooltip content={`${style.description ?? style.name}${limits ? ` (${limits})` : ""}`} relationship="description">
      <button
        type="button"
        role="radio"
        aria-checked={selected}
        disabled={disabled}
        className={mergeClasses(classes.card, selected && classes.selected)}
        onClick={onSelect}
        data-testid={`skybox-style-${style.id}`}
      >
        {style.image ? <img className={classes.image} src={style.image} alt="" loading="lazy" /> : <div className={classes.image} />}
        <Caption1 className={pane.ellipsis}>{style.name}</Caption1>
        <div className={classes.badges}>
          {style.new && (
            <Badge size="small" color="brand">
              New
            </Badge>
          )}
          {style.premium && (
            <Badge size="small" color="important" appearance="tint">
              Premium
            </Badge>
          )}
          {style.experimental && (
            <Badge size="small" color="warning" appearance="tint">
              Beta
            </Badge>
          )}
        </div>
      </button>
    </Tooltip>
  );
};
