// Tables looked up by text from outside agentstream (an agent's name, a native error kind or tool name, a file's
// extension, an event's type): a plain object answers "constructor", "toString" or "__proto__" with
// Object.prototype's members. A table made here has no prototype: such a key is absent like any unknown one.

/** The table's entries in an object without a prototype: `table[key]` is an own entry or undefined, whatever the key. */
export function ownTable<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
