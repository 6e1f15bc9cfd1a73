//! hashicorp/hcl ext/tryfunc: `try(exprs...)` is the first argument that
//! evaluates without an error, `can(expr)` whether it does. Both need their
//! arguments unevaluated, and `hcl::eval` evaluates a call's arguments before
//! the call, so each `try`/`can` call is evaluated here first, innermost
//! first, and replaced by its result. Inside a `for` expression the loop
//! variables are not known here: such a call is left to the eager stand-ins
//! below (`try` = its first argument, `can` = true), which is a divergence
//! only when an argument there fails.

use hcl::eval::{Context, Evaluate};
use hcl::expr::{Expression, Operation};
use hcl::Value;

use super::cty::{FnErr, Spec, Ty, declare, nullable};

static TRY: Spec = Spec { name: "try", params: &[], var: Some(nullable("expressions", Ty::Any)), imp: |a| a.first().cloned().ok_or_else(|| FnErr::Call("at least one argument is required".into())) };
static CAN: Spec = Spec { name: "can", params: &[nullable("expression", Ty::Any)], var: None, imp: |_| Ok(Value::Bool(true)) };

pub(super) fn register(ctx: &mut Context) {
    declare!(ctx, TRY, CAN);
}

/// `expr` with every `try`/`can` call outside `for` expressions replaced by
/// its value; `Err` is HCL's message when every `try` argument failed.
pub(super) fn resolve(expr: &Expression, ctx: &Context) -> Result<Expression, String> {
    let mut e = expr.clone();
    walk(&mut e, ctx)?;
    Ok(e)
}

fn walk(e: &mut Expression, ctx: &Context) -> Result<(), String> {
    match e {
        Expression::FuncCall(call) if call.name.namespace.is_empty() && matches!(call.name.name.as_str(), "try" | "can") && !call.expand_final => {
            for a in call.args.iter_mut() {
                walk(a, ctx)?;
            }
            let is_try = call.name.name.as_str() == "try";
            if !is_try {
                if call.args.len() != 1 {
                    return Ok(());
                }
                *e = Expression::Bool(call.args[0].evaluate(ctx).is_ok());
                return Ok(());
            }
            if call.args.is_empty() {
                return Err("Not enough function arguments; Function \"try\" expects at least one argument.".into());
            }
            let mut last = String::new();
            for a in &call.args {
                match a.evaluate(ctx) {
                    Ok(v) => {
                        *e = Expression::from(v);
                        return Ok(());
                    }
                    Err(err) => last = err.to_string(),
                }
            }
            Err(format!("Error in function call; Call to function \"try\" failed: no expression succeeded:\n- {last}"))
        }
        Expression::FuncCall(call) => call.args.iter_mut().try_for_each(|a| walk(a, ctx)),
        Expression::Array(items) => items.iter_mut().try_for_each(|a| walk(a, ctx)),
        Expression::Object(o) => o.iter_mut().try_for_each(|(_, v)| walk(v, ctx)),
        Expression::Parenthesis(inner) => walk(inner, ctx),
        Expression::Traversal(t) => walk(&mut t.expr, ctx),
        Expression::Conditional(c) => {
            walk(&mut c.cond_expr, ctx)?;
            walk(&mut c.true_expr, ctx)?;
            walk(&mut c.false_expr, ctx)
        }
        Expression::Operation(op) => match op.as_mut() {
            Operation::Unary(u) => walk(&mut u.expr, ctx),
            Operation::Binary(b) => {
                walk(&mut b.lhs_expr, ctx)?;
                walk(&mut b.rhs_expr, ctx)
            }
        },
        _ => Ok(()),
    }
}
