import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactElement,
  type Ref,
} from 'react';

/*
 * The top navigation's menus (profile, environment) load their code when first wanted. A menu and
 * the positioning library under it are a good part of a first visit's download, yet most pages are
 * used without opening them. Until then the menu's button stands alone, looking and announcing itself
 * as the menu's trigger does; pointing at it or focusing it starts the download, so the menu is
 * usually there by the time the button is pressed. A press that comes first opens the menu once it
 * has arrived.
 *
 * The loaded menu brings its own button, a new element in the stand-in's place. It takes over only
 * while nothing is under way on the stand-in: not while the pointer rests on it or it has the focus,
 * since a press may have begun there, and a press that starts on one element and ends on another
 * reaches neither. Until then the stand-in answers as before; pressing it swaps at once and opens the
 * menu, and leaving it swaps quietly.
 */

/** How the stand-in button was used before the menu arrived. */
export type MenuRequest = {
  /** The button was pressed: open the menu as soon as it is there. */
  open: boolean;
  /** The button had the focus: the menu's own button, a new element, takes it back. */
  focus: boolean;
};

/** What a deferred menu's component receives besides its own props. */
export type LoadedMenuProps = {
  /** The trigger button, to wrap in `Menu.Target` through `useMenuRequest`. */
  target: TargetElement;
  request: MenuRequest;
};

/** What the stand-in and the loaded menu set on the trigger button. */
type TargetProps = {
  ref?: Ref<HTMLButtonElement>;
  onClick?: () => void;
  onFocus?: () => void;
  onBlur?: () => void;
  onPointerEnter?: () => void;
  onMouseLeave?: () => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
};

export type TargetElement = ReactElement<TargetProps>;

export type MenuLoader<P> = {
  /** The menu's component once loaded. */
  loaded: () => ComponentType<P & LoadedMenuProps> | undefined;
  load: () => Promise<ComponentType<P & LoadedMenuProps>>;
};

/** Loads a menu's module once, however many buttons ask for it; a failed load is tried again next time. */
export function menuLoader<P>(load: () => Promise<ComponentType<P & LoadedMenuProps>>): MenuLoader<P> {
  let component: ComponentType<P & LoadedMenuProps> | undefined;
  let loading: Promise<ComponentType<P & LoadedMenuProps>> | undefined;
  return {
    loaded: () => component,
    load: () => {
      loading ??= load().then(
        (loaded) => (component = loaded),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}

type DeferredMenuProps<P> = {
  loader: MenuLoader<P>;
  /**
   * The menu's trigger button, without event handlers of its own (the stand-in sets them); the loaded
   * menu wraps the same element.
   */
  target: TargetElement;
  /** The loaded menu's own props. */
  menuProps: P;
};

/** The menu of `loader` once loaded; until then its trigger button, which loads it when wanted. */
export function DeferredMenu<P extends object>({ loader, target, menuProps }: DeferredMenuProps<P>) {
  const [Menu, setMenu] = useState(() => loader.loaded());
  const [request, setRequest] = useState<MenuRequest>({ open: false, focus: false });
  const [pointedAt, setPointedAt] = useState(false);
  const inUse = pointedAt || request.focus;
  if (Menu && (request.open || !inUse)) return <Menu {...menuProps} target={target} request={request} />;

  const load = () => {
    loader.load().then(
      (loaded) => setMenu(() => loaded),
      // The button stays as it is; the next use tries again.
      () => undefined,
    );
  };
  return cloneElement(target, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: () => {
      setPointedAt(true);
      load();
    },
    // Not pointerleave: a finger's ends before the tap's click, which must still find the stand-in.
    onMouseLeave: () => setPointedAt(false),
    onFocus: () => {
      setRequest((current) => ({ ...current, focus: true }));
      load();
    },
    // Leaving the button also withdraws a press the menu has not answered yet.
    onBlur: () => setRequest({ open: false, focus: false }),
    onClick: () => {
      setRequest((current) => ({ ...current, open: true }));
      load();
    },
  });
}

/**
 * For the loaded menu: its trigger, carrying what the stand-in was asked for. The focus moves to it
 * before the menu opens, so that closing the menu returns the focus there as usual; the menu opens
 * through a press of its own button, as if the user's press had reached it.
 */
export function useMenuRequest({ target, request }: LoadedMenuProps): TargetElement {
  const [button, setButton] = useState<HTMLButtonElement | null>(null);
  const pending = useRef<MenuRequest | null>(request);
  useEffect(() => {
    const asked = pending.current;
    if (!asked || !button) return;
    // Once only, also when an effect runs twice in development.
    pending.current = null;
    if (asked.focus) button.focus();
    if (asked.open) button.click();
  }, [button]);
  return cloneElement(target, { ref: setButton });
}
