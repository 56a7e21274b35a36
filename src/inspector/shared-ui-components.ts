// Ambient types for the parts of @babylonjs/shared-ui-components that @babylonjs/inspector 9.x's
// published .d.ts files import but npm does not ship (the JS is bundled into the inspector).
// Transcribed from BabylonJS/Babylon.js packages/dev/sharedUiComponents/src/modularTool/* and
// checked against the 9.25.0 bundle (lib/index-*.js). Only what a side-pane extension needs
// is typed; every other shared-ui-components module falls back to `any` via the wildcard.
/* eslint-disable @typescript-eslint/no-explicit-any -- transcribed as Babylon declares them */

declare module "@babylonjs/shared-ui-components/modularTool/modularity/serviceDefinition.js" {
  import type { IDisposable } from "@babylonjs/core/scene.js";
  const Contract: unique symbol;
  export interface IService<ContractIdentity extends symbol> {
    readonly [Contract]?: ContractIdentity;
  }
  type ExtractContractIdentity<S extends IService<symbol>> = S extends IService<infer C> ? C : never;
  type ExtractContractIdentities<S extends IService<symbol>[]> = { [I in keyof S]: ExtractContractIdentity<S[I]> };
  type UnionToIntersection<U> = (U extends any ? (k: U) => void : never) extends (k: infer I) => void ? I : never;
  export type ServiceFactory<Produces extends IService<symbol>[], Consumes extends IService<symbol>[]> = (
    ...dependencies: [...Consumes]
  ) => Produces extends [] ? Partial<IDisposable> | void : Partial<IDisposable> & UnionToIntersection<Produces[number]>;
  export type ServiceDefinition<Produces extends IService<symbol>[] = [], Consumes extends IService<symbol>[] = []> = {
    friendlyName: string;
    factory: ServiceFactory<Produces, Consumes>;
  } & (Produces extends [] ? { produces?: [] } : { produces: ExtractContractIdentities<Produces> }) &
    (Consumes extends [] ? { consumes?: [] } : { consumes: ExtractContractIdentities<Consumes> });
  export function ConstructorFactory<C extends new (...args: any) => any>(
    constructor: C,
  ): (...args: ConstructorParameters<C>) => InstanceType<C>;
}

declare module "@babylonjs/shared-ui-components/modularTool/modularity/serviceContainer.js" {
  import type { IService, ServiceDefinition } from "@babylonjs/shared-ui-components/modularTool/modularity/serviceDefinition.js";
  export type WeaklyTypedServiceDefinition = Omit<ServiceDefinition<IService<symbol>[] | [], IService<symbol>[] | []>, "factory"> & {
    factory: (...args: any) => ReturnType<ServiceDefinition<IService<symbol>[] | [], IService<symbol>[] | []>["factory"]>;
  };
  export class ServiceContainer {
    private constructor();
    dispose(): void;
  }
}

declare module "@babylonjs/shared-ui-components/modularTool/services/shellService.js" {
  import type { ComponentType } from "react";
  import type { IDisposable } from "@babylonjs/core/scene.js";
  import type { Nullable } from "@babylonjs/core/types.js";
  import type { IService } from "@babylonjs/shared-ui-components/modularTool/modularity/serviceDefinition.js";
  export type HorizontalLocation = "left" | "right";
  export type VerticalLocation = "top" | "bottom";
  type TeachingMomentInfo = boolean | { readonly title: string; readonly description: string };
  export type ToolbarItemDefinition = {
    key: string;
    component: ComponentType;
    order?: number;
    horizontalLocation: HorizontalLocation;
    verticalLocation: VerticalLocation;
    displayName?: string;
    teachingMoment?: TeachingMomentInfo;
  };
  export type SidePaneDefinition = {
    key: string;
    icon: ComponentType;
    content: ComponentType;
    order?: number;
    horizontalLocation: HorizontalLocation;
    verticalLocation: VerticalLocation;
    title: string;
    teachingMoment?: TeachingMomentInfo;
    keepMounted?: boolean;
  };
  export type CentralContentDefinition = { key: string; component: ComponentType; order?: number };
  type RegisteredSidePane = { readonly key: string; select(): void };
  type SidePaneContainer = {
    readonly isDocked: boolean;
    dock(): void;
    undock(): void;
    readonly isCollapsed: boolean;
    collapse(): void;
    expand(): void;
  };
  export const ShellServiceIdentity: unique symbol;
  export interface IShellService extends IService<typeof ShellServiceIdentity> {
    addToolbarItem(item: Readonly<ToolbarItemDefinition>): IDisposable;
    addSidePane(pane: Readonly<SidePaneDefinition>): IDisposable;
    addCentralContent(content: Readonly<CentralContentDefinition>): IDisposable;
    readonly leftSidePaneContainer: Nullable<SidePaneContainer>;
    readonly rightSidePaneContainer: Nullable<SidePaneContainer>;
    readonly sidePanes: readonly RegisteredSidePane[];
  }
  export type ShellServiceOptions = {
    leftPaneDefaultWidth?: number;
    leftPaneMinWidth?: number;
    rightPaneDefaultWidth?: number;
    rightPaneMinWidth?: number;
    toolbarMode?: "full" | "compact";
    leftPaneDefaultCollapsed?: boolean;
    rightPaneDefaultCollapsed?: boolean;
    sidePaneRemapper?: (
      sidePane: Readonly<SidePaneDefinition>,
    ) => Nullable<{ horizontalLocation: HorizontalLocation; verticalLocation: VerticalLocation }>;
  };
}

declare module "@babylonjs/shared-ui-components/modularTool/services/themeService.js" {
  import type { Theme } from "@fluentui/react-components";
  import type { IReadonlyObservable } from "@babylonjs/core/Misc/observable.js";
  import type { IService } from "@babylonjs/shared-ui-components/modularTool/modularity/serviceDefinition.js";
  export type ThemeMode = "system" | "light" | "dark";
  export const ThemeServiceIdentity: unique symbol;
  export interface IThemeService extends IService<typeof ThemeServiceIdentity> {
    readonly isDark: boolean;
    mode: ThemeMode;
    toggle(): void;
    readonly theme: Theme;
    readonly onChanged: IReadonlyObservable<void>;
  }
}

declare module "@babylonjs/shared-ui-components/modularTool/extensibility/extensionFeed.js" {
  export interface IExtensionFeed {
    readonly name: string;
    queryExtensionsAsync(filter?: string): Promise<unknown>;
    getExtensionModuleAsync(name: string): Promise<unknown>;
  }
}

declare module "@babylonjs/shared-ui-components/modularTool/modularTool.js" {
  import type { IDisposable } from "@babylonjs/core/scene.js";
  import type { WeaklyTypedServiceDefinition } from "@babylonjs/shared-ui-components/modularTool/modularity/serviceContainer.js";
  import type { ShellServiceOptions } from "@babylonjs/shared-ui-components/modularTool/services/shellService.js";
  import type { ThemeMode } from "@babylonjs/shared-ui-components/modularTool/services/themeService.js";
  import type { IExtensionFeed } from "@babylonjs/shared-ui-components/modularTool/extensibility/extensionFeed.js";
  export type ModularToolOptions = {
    namespace: string;
    containerElement: HTMLElement;
    serviceDefinitions: readonly WeaklyTypedServiceDefinition[];
    themeMode?: ThemeMode;
    showThemeSelector?: boolean;
    extensionFeeds?: readonly IExtensionFeed[];
    disableTeachingMoments?: boolean;
  } & ShellServiceOptions;
  export function MakeModularTool(options: ModularToolOptions): IDisposable;
}

declare module "@babylonjs/shared-ui-components/modularTool/hooks/observableHooks.js" {
  import type { IReadonlyObservable } from "@babylonjs/core/Misc/observable.js";
  export function useObservableState<T>(accessor: () => T, ...observables: Array<IReadonlyObservable<any> | null | undefined>): T;
  export function useEventfulState<T>(accessor: () => T, element: HTMLElement | null | undefined, ...eventNames: string[]): T;
}

declare module "@babylonjs/shared-ui-components/modularTool/hooks/themeHooks.js" {
  import type { Theme } from "@fluentui/react-components";
  import type { ThemeMode } from "@babylonjs/shared-ui-components/modularTool/services/themeService.js";
  export function useThemeMode(): {
    isDarkMode: boolean;
    themeMode: ThemeMode;
    setThemeMode(mode: ThemeMode): void;
    toggleThemeMode(): void;
  };
  export function useTheme(invert?: boolean): Theme;
}

// Everything else the inspector typings mention (Fluent primitives, property lines, settings...) stays `any`.
declare module "@babylonjs/shared-ui-components/*";
