import { checkClutterItem, type ClutterItem } from './clutter.ts';
import { handProps } from './hand-prop.ts';
import type { Prop } from './prop-shape.ts';
import { BareBaseProp, CardProp, DieProp, RulerProp } from './table-props.ts';

export { slabHit, type Prop } from './prop-shape.ts';

/** Compiles clutter items into props (a hand into one prop per part, sharing its index); an item that cannot be drawn is a clear error. */
export function compileProps(items: readonly ClutterItem[]): Prop[] {
  return items.flatMap((item, i): Prop | Prop[] => {
    checkClutterItem(item, i);
    switch (item.kind) {
      case 'base':
        return new BareBaseProp(item, i);
      case 'die':
        return new DieProp(item, i);
      case 'ruler':
        return new RulerProp(item, i);
      case 'card':
        return new CardProp(item, i);
      case 'hand':
        return handProps(item, i);
    }
  });
}
