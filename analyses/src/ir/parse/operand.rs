//! Operands and the tokens inside them: number and string literals, names, and references to
//! variables, procedures and members.

use super::{Fallible, Items, MethodReader, Rule};
use crate::ir::types::{FieldRef, Operand, ProcId, VarId};
use pest::iterators::Pair;

impl<'i> MethodReader<'_, 'i> {
    pub(super) fn operands(&self, pair: Pair<'i, Rule>) -> Fallible<Vec<Operand>> {
        Items::new(pair).map(|operand| self.operand(operand)).collect()
    }

    pub(super) fn operand(&self, pair: Pair<'i, Rule>) -> Fallible<Operand> {
        let text = pair.as_str();
        Ok(match pair.as_rule() {
            Rule::var => Operand::Var(self.var(&pair)?),
            Rule::int_lit => Operand::Int(
                text.parse()
                    .map_err(|_| self.error_at_pair(&pair, "integer literal out of range for int".into()))?,
            ),
            Rule::long_lit => Operand::Long(
                text[..text.len() - 1]
                    .parse()
                    .map_err(|_| self.error_at_pair(&pair, "integer literal out of range for long".into()))?,
            ),
            Rule::float_lit => {
                let digits = &text[..text.len() - 1];
                let value: f32 = digits.parse().map_err(|_| self.internal(&pair))?;
                self.check_decimal(&pair, digits, value.is_infinite(), value == 0.0, "float")?;
                Operand::Float(value.to_bits())
            }
            Rule::double_lit => {
                let digits = &text[..text.len() - 1];
                let value: f64 = digits.parse().map_err(|_| self.internal(&pair))?;
                self.check_decimal(&pair, digits, value.is_infinite(), value == 0.0, "double")?;
                Operand::Double(value.to_bits())
            }
            Rule::float_bits => Operand::Float(u32::from_str_radix(&text[2..], 16).map_err(|_| self.internal(&pair))?),
            Rule::double_bits => {
                Operand::Double(u64::from_str_radix(&text[2..], 16).map_err(|_| self.internal(&pair))?)
            }
            Rule::null_lit => Operand::Null,
            Rule::string => Operand::Str(self.string(&pair)?),
            Rule::class_lit | Rule::paren_class_lit | Rule::call_class_lit => {
                Operand::Class(self.name(&Items::new(pair).expect(self)?)?)
            }
            _ => return Err(self.internal(&pair)),
        })
    }

    /// Rejects decimal literals that do not denote a finite value of their type, or that are not
    /// zero but round to zero (as Java does); non-finite values are written as raw bits (`F#...`).
    fn check_decimal(&self, pair: &Pair<'_, Rule>, digits: &str, infinite: bool, zero: bool, ty: &str) -> Fallible<()> {
        let mantissa = digits.split(['e', 'E']).next().unwrap_or("");
        if infinite {
            Err(self.error_at_pair(pair, format!("{ty} literal too large (write infinities as raw bits)")))
        } else if zero && mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
            Err(self.error_at_pair(pair, format!("{ty} literal too small: it rounds to zero")))
        } else {
            Ok(())
        }
    }

    pub(super) fn uint(&self, pair: &Pair<'_, Rule>) -> Fallible<u32> {
        pair.as_str()
            .parse()
            .map_err(|_| self.error_at_pair(pair, "number out of range (0 to 4294967295)".into()))
    }

    pub(super) fn var(&self, pair: &Pair<'i, Rule>) -> Fallible<VarId> {
        self.var_ids
            .get(pair.as_str())
            .copied()
            .ok_or_else(|| self.error_at_pair(pair, format!("unknown variable `{}`", pair.as_str())))
    }

    pub(super) fn proc_ref(&self, pair: &Pair<'i, Rule>) -> Fallible<ProcId> {
        self.proc_ids
            .get(pair.as_str())
            .copied()
            .ok_or_else(|| self.error_at_pair(pair, format!("unknown procedure `{}`", pair.as_str())))
    }

    pub(super) fn member(&self, pair: Pair<'i, Rule>) -> Fallible<(String, String, String)> {
        let mut items = Items::new(pair);
        let class = self.name(&items.expect(self)?)?;
        let name = self.name(&items.expect(self)?)?;
        let descriptor = self.name(&items.expect(self)?)?;
        Ok((class, name, descriptor))
    }

    pub(super) fn field(&self, pair: Pair<'i, Rule>) -> Fallible<FieldRef> {
        let (class, name, descriptor) = self.member(pair)?;
        Ok(FieldRef {
            class,
            name,
            descriptor,
        })
    }

    pub(super) fn name_desc(&self, pair: Pair<'i, Rule>) -> Fallible<(String, String)> {
        let mut items = Items::new(pair);
        let name = self.name(&items.expect(self)?)?;
        let descriptor = self.name(&items.expect(self)?)?;
        Ok((name, descriptor))
    }

    /// A name, bare or quoted.
    pub(super) fn name(&self, pair: &Pair<'_, Rule>) -> Fallible<String> {
        match pair.as_rule() {
            Rule::string => self.string(pair),
            _ => Ok(pair.as_str().to_owned()),
        }
    }

    /// Decodes a string literal, checking its escapes.
    pub(super) fn string(&self, pair: &Pair<'_, Rule>) -> Fallible<String> {
        let quoted = pair.as_str();
        let Some(body) = quoted.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) else {
            return Err(self.internal(pair));
        };
        if !body.contains('\\') {
            return Ok(body.to_owned());
        }
        // Offsets in `body` are one past offsets in the literal.
        let at = |k: usize| pair.as_span().start() + 1 + k;
        let mut out = String::with_capacity(body.len());
        let mut rest = body;
        while let Some(backslash) = rest.find('\\') {
            out.push_str(&rest[..backslash]);
            let offset = body.len() - rest.len() + backslash;
            let after = &rest[backslash + 1..];
            let Some(escape) = after.chars().next() else {
                return Err(self.internal(pair));
            };
            let consumed = match escape {
                '\\' | '"' | 'n' | 'r' | 't' => {
                    out.push(match escape {
                        'n' => '\n',
                        'r' => '\r',
                        't' => '\t',
                        c => c,
                    });
                    1
                }
                'u' => {
                    let invalid = || {
                        self.error(
                            at(offset),
                            "invalid `\\u{...}` escape: expected 1 to 6 hex digits".into(),
                        )
                    };
                    let braced = after[1..].strip_prefix('{').ok_or_else(invalid)?;
                    let close = braced.find('}').ok_or_else(invalid)?;
                    let hex = &braced[..close];
                    if hex.is_empty() || hex.len() > 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                        return Err(invalid());
                    }
                    let code = u32::from_str_radix(hex, 16).map_err(|_| invalid())?;
                    let c = char::from_u32(code).ok_or_else(|| {
                        self.error(at(offset), format!("`\\u{{{hex}}}` is not a Unicode scalar value"))
                    })?;
                    out.push(c);
                    // `u`, `{`, the digits and `}`.
                    3 + close
                }
                other => return Err(self.error(at(offset), format!("invalid escape `\\{other}` in a string"))),
            };
            rest = &after[consumed..];
        }
        out.push_str(rest);
        Ok(out)
    }
}
