//! The variable table of a method being lifted: one variable per key, with unique, readable names.
//!
//! Invariants: every name is an IR identifier (`ir::is_identifier`) and unique in the method; the same
//! key always yields the same variable, so rule-scoped versions are shared between rules.

use jresa_analyses::ir::{is_identifier, Ty, VarDecl, VarId};
use std::collections::{HashMap, HashSet};

/// What a variable stands for; the lifter asks for variables by key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum VarKey {
    /// A local slot at a block entry, under the name the `LocalVariableTable` gives it there.
    Local { slot: u16, ty: Ty, name: String },
    /// The `k`-th new value of a local's variable within one rule.
    Version { base: VarId, k: u32 },
    /// The `k`-th intermediate value of a type within one rule.
    Temp { ty: Ty, k: u32 },
    /// The operand-stack entry at `depth` on a block's entry.
    Stack { depth: usize, ty: Ty },
    /// An operand of a branch condition passed to a branch procedure.
    CondOperand { k: usize, ty: Ty },
    /// The method's return value (the top-level output).
    Ret,
    /// The exception received by a handler-dispatch procedure.
    Exception,
    /// A loop output, by what it carries out of the loop.
    Out(OutKey),
    /// An input of a loop's exit dispatch: the selector or a value that is not a local.
    DispatchIn(OutKey),
}

/// What a loop output carries out of the loop.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OutKey {
    Slot(u16, TyKey),
    Stack(usize, TyKey),
    ReturnValue(TyKey),
    Selector,
}

/// `Ty` with a total order, for sorting output keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TyKey(u8);

impl TyKey {
    pub fn new(ty: Ty) -> Self {
        TyKey(match ty {
            Ty::Int => 0,
            Ty::Long => 1,
            Ty::Float => 2,
            Ty::Double => 3,
            Ty::Ref => 4,
        })
    }

    pub fn ty(self) -> Ty {
        match self.0 {
            0 => Ty::Int,
            1 => Ty::Long,
            2 => Ty::Float,
            3 => Ty::Double,
            _ => Ty::Ref,
        }
    }
}

/// The one-letter suffix that tells apart temporaries of different types.
fn type_suffix(ty: Ty) -> &'static str {
    match ty {
        Ty::Int => "",
        Ty::Long => "l",
        Ty::Float => "f",
        Ty::Double => "d",
        Ty::Ref => "r",
    }
}

/// Turns an arbitrary `LocalVariableTable` name into an identifier base (`l<slot>` when nothing usable).
pub fn sanitize_local_name(name: &str, slot: u16) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect();
    match cleaned.chars().next() {
        None => format!("l{slot}"),
        Some(c) if c.is_ascii_digit() => format!("_{cleaned}"),
        Some(_) => cleaned,
    }
}

/// The variables of one method.
#[derive(Default)]
pub struct VarTable {
    decls: Vec<VarDecl>,
    used: HashSet<String>,
    by_key: HashMap<VarKey, VarId>,
}

impl VarTable {
    /// The variable for `key`, declaring it on first use.
    pub fn get(&mut self, key: VarKey) -> VarId {
        self.get_hinted(key, None)
    }

    /// The variable for `key`, declaring it on first use under a name based on `hint` if given.
    pub fn get_hinted(&mut self, key: VarKey, hint: Option<&str>) -> VarId {
        if let Some(&var) = self.by_key.get(&key) {
            return var;
        }
        let (mut base, ty) = match &key {
            VarKey::Local { ty, name, .. } => (name.clone(), *ty),
            VarKey::Version { base, k } => {
                let decl = &self.decls[base.index()];
                (format!("{}.{k}", decl.name), decl.ty)
            }
            VarKey::Temp { ty, k } => (format!("t{k}{}", type_suffix(*ty)), *ty),
            VarKey::Stack { depth, ty } => (format!("s{depth}{}", type_suffix(*ty)), *ty),
            VarKey::CondOperand { k, ty } => (format!("c{k}{}", type_suffix(*ty)), *ty),
            VarKey::Ret => ("ret".to_owned(), Ty::Int),
            VarKey::Exception => ("exc".to_owned(), Ty::Ref),
            VarKey::Out(out) => match out {
                OutKey::Slot(slot, ty) => (format!("l{slot}{}.out", type_suffix(ty.ty())), ty.ty()),
                OutKey::Stack(depth, ty) => (format!("s{depth}{}.out", type_suffix(ty.ty())), ty.ty()),
                OutKey::ReturnValue(ty) => ("retv.out".to_owned(), ty.ty()),
                OutKey::Selector => ("sel.out".to_owned(), Ty::Int),
            },
            VarKey::DispatchIn(out) => match out {
                OutKey::Slot(slot, ty) => (format!("l{slot}{}", type_suffix(ty.ty())), ty.ty()),
                OutKey::Stack(depth, ty) => (format!("s{depth}{}", type_suffix(ty.ty())), ty.ty()),
                OutKey::ReturnValue(ty) => ("retv".to_owned(), ty.ty()),
                OutKey::Selector => ("sel".to_owned(), Ty::Int),
            },
        };
        if let Some(hint) = hint {
            base = hint.to_owned();
        }
        let name = self.unique(&base);
        let var = VarId::from_index(self.decls.len());
        self.used.insert(name.clone());
        self.decls.push(VarDecl { name, ty });
        self.by_key.insert(key, var);
        var
    }

    /// The return-value variable, of the method's return type.
    pub fn ret(&mut self, ty: Ty) -> VarId {
        let var = self.get(VarKey::Ret);
        self.decls[var.index()].ty = ty;
        var
    }

    pub fn ty(&self, var: VarId) -> Ty {
        self.decls[var.index()].ty
    }

    fn unique(&self, base: &str) -> String {
        if is_identifier(base) && !self.used.contains(base) {
            return base.to_owned();
        }
        (2..)
            .map(|n| format!("{base}#{n}"))
            .find(|candidate| is_identifier(candidate) && !self.used.contains(candidate))
            .unwrap_or_else(|| unreachable!("an unbounded search finds a free name"))
    }

    pub fn into_decls(self) -> Vec<VarDecl> {
        self.decls
    }
}
