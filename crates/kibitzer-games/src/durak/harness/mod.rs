//! durak's benchmark (`kibitzer bench durak`) and arena (`kibitzer play durak`).

mod arena;
mod rules;

use crate::harness::{Arena, Workload};

pub(super) const WORKLOAD: Workload = Workload {
    name: "durak",
    about: "durak: hand values/s through the rules, rule-AI decisions/s, arena games/s with the rule AI in every seat",
    run: rules::run,
};

pub(super) const ARENA: Arena = Arena {
    game: "durak",
    about: "whole durak games: seats durak (the rule AI) or a .rules path, random, lowest, reference (native); \
            settings deck=24|32|36|52 transfer=true five_before_first_discard=false, any other NAME=VALUE is a rule parameter",
    players: arena::PLAYERS,
    rule_sets: &["durak"],
    run: arena::run,
};
