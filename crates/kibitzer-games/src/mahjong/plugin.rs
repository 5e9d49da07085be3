//! How mahjong plugs into the engine: its built-ins and input types.

use crate::builtins::Registry;

/// Registers mahjong's built-ins and input types.
pub fn register(registry: &mut Registry) {
    super::rules_api::register(registry);
}
