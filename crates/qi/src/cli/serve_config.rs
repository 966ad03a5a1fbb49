//! `qi serve`'s settings from three places: a flag wins over its `QI_…` variable (clap's `env`),
//! which wins over the `--config` TOML file, which wins over the default. The file's settings
//! are given to clap as flags of this process (never of its command line, so no secret shows in
//! `ps`) for each setting neither a flag nor a variable gave, so they are checked exactly as flags
//! are. `--print-config` shows the outcome and where each value came from, secrets masked.

use anyhow::{bail, Context, Result};
use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, Command, Parser};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::Path;

/// Arguments that are about reading settings, not settings themselves.
const NOT_SETTINGS: [&str; 5] = ["config", "print_config", "json", "help", "version"];

/// Settings whose values are secrets: URLs that may hold a password, and tokens.
const SECRETS: [&str; 3] = ["database", "redis", "metrics_token"];

/// The most bytes a settings file may have (it is read whole).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// What the command line asked for once the settings are gathered.
pub enum Parsed<C> {
    /// Run this command.
    Run(C),
    /// `qi serve --print-config` printed the settings: nothing else to do.
    Printed,
}

/// Parses the command line as `C::parse` does (exiting with clap's message on a bad one), adding
/// the settings of `qi serve --config FILE` that no flag or variable gave.
pub fn parse<C: Parser>(argv: Vec<OsString>) -> Result<Parsed<C>> {
    let matches = C::command().get_matches_from(&argv);
    let Some(("serve", serve)) = matches.subcommand() else {
        return Ok(Parsed::Run(C::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())));
    };
    // Only `serve`'s arguments are built (the others are deferred: building them all would
    // slow every short command's start).
    let mut command = C::command();
    let serve_command = command.find_subcommand_mut("serve").context("no serve command")?;
    serve_command.build();
    let serve_command = &*serve_command;
    let (matches, from_file) = match serve.get_one::<std::path::PathBuf>("config") {
        None => (matches.clone(), BTreeSet::new()),
        Some(path) => {
            let (extra, from_file) = file_arguments(path, serve, serve_command)?;
            (C::command().get_matches_from(argv.into_iter().chain(extra)), from_file)
        }
    };
    let serve = matches.subcommand_matches("serve").context("no serve command")?;
    if serve.get_flag("print_config") {
        let settings = effective(serve, serve_command, &from_file);
        if serve.get_flag("json") {
            println!("{}", json!({ "settings": settings }));
        } else {
            print!("{}", as_toml(&settings));
        }
        return Ok(Parsed::Printed);
    }
    Ok(Parsed::Run(C::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())))
}

/// The file's settings as flags (`--max-rooms=100`), for those no flag or variable gave, and
/// the names of the settings they set.
fn file_arguments(path: &Path, given: &ArgMatches, serve: &Command) -> Result<(Vec<OsString>, BTreeSet<String>)> {
    let shown = path.display();
    let size = std::fs::metadata(path).with_context(|| format!("cannot read the settings file {shown}"))?.len();
    if size > MAX_FILE_BYTES {
        bail!("the settings file {shown} has {size} bytes; at most {MAX_FILE_BYTES} are read");
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read the settings file {shown}"))?;
    let table: toml::Table = text.parse().with_context(|| format!("{shown} is not TOML"))?;
    let mut extra = Vec::new();
    let mut from_file = BTreeSet::new();
    for (key, value) in &table {
        let id = key.replace('-', "_");
        let arg = serve
            .get_arguments()
            .find(|a| a.get_id() == id.as_str() && !NOT_SETTINGS.contains(&id.as_str()))
            .with_context(|| {
                format!(
                    "{shown}: {key:?} is not a setting of qi serve (the settings are its flags: {})",
                    names(serve).join(", ")
                )
            })?;
        if matches!(given.value_source(&id), Some(ValueSource::CommandLine | ValueSource::EnvVariable)) {
            continue;
        }
        let long = arg.get_long().with_context(|| format!("{shown}: {key:?} has no flag"))?;
        let scalars = match value {
            toml::Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        for scalar in scalars {
            let text = match scalar {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(n) => n.to_string(),
                toml::Value::Float(x) => x.to_string(),
                toml::Value::Boolean(b) if matches!(arg.get_action(), ArgAction::SetTrue) => {
                    if *b {
                        extra.push(OsString::from(format!("--{long}")));
                    }
                    continue;
                }
                other => bail!("{shown}: {key:?} cannot be {} {other}", other.type_str()),
            };
            extra.push(OsString::from(format!("--{long}={text}")));
        }
        from_file.insert(id);
    }
    Ok((extra, from_file))
}

/// The settings' names as the file writes them.
fn names(serve: &Command) -> Vec<String> {
    serve.get_arguments().map(|a| a.get_id().to_string()).filter(|id| !NOT_SETTINGS.contains(&id.as_str())).collect()
}

/// Each setting's value (masked when secret; `null` when unset) and where it came from.
fn effective(serve: &ArgMatches, command: &Command, from_file: &BTreeSet<String>) -> Map<String, Value> {
    let mut settings = Map::new();
    for id in names(command) {
        let values: Vec<String> =
            serve.get_raw(&id).map(|raw| raw.map(|v| v.to_string_lossy().into_owned()).collect()).unwrap_or_default();
        let values: Vec<String> =
            if SECRETS.contains(&id.as_str()) { values.iter().map(|v| mask(v)).collect() } else { values };
        let from = match serve.value_source(&id) {
            _ if from_file.contains(&id) => "file",
            Some(ValueSource::CommandLine) => "flag",
            Some(ValueSource::EnvVariable) => "environment",
            Some(ValueSource::DefaultValue) => "default",
            _ => "unset",
        };
        let value = match values.as_slice() {
            [] => Value::Null,
            [one] if !multiple(command, &id) => Value::String(one.clone()),
            many => many.iter().cloned().map(Value::String).collect(),
        };
        settings.insert(id, json!({ "value": value, "from": from }));
    }
    settings
}

fn multiple(command: &Command, id: &str) -> bool {
    command.get_arguments().any(|a| a.get_id() == id && matches!(a.get_action(), ArgAction::Append))
}

/// A secret as it may be shown: a URL keeps all but its password; anything else is hidden.
fn mask(value: &str) -> String {
    if value.contains("://") {
        super::serve_rooms::without_password(value)
    } else {
        "***".into()
    }
}

/// The settings as a TOML file that `--config` reads back (unset ones as comments).
fn as_toml(settings: &Map<String, Value>) -> String {
    let mut out = String::from("# qi serve's settings: a flag wins over its QI_ variable, which wins over --config\n");
    for (id, setting) in settings {
        let from = setting["from"].as_str().unwrap_or("");
        let value = match &setting["value"] {
            Value::Null => {
                out.push_str(&format!("# {id} is not set\n"));
                continue;
            }
            Value::String(s) => toml_scalar(s),
            Value::Array(items) => {
                let items: Vec<String> = items.iter().map(|v| toml_scalar(v.as_str().unwrap_or(""))).collect();
                format!("[{}]", items.join(", "))
            }
            other => other.to_string(),
        };
        out.push_str(&format!("{id} = {value}  # {from}\n"));
    }
    out
}

/// A number or true/false as itself, anything else as a TOML string.
fn toml_scalar(text: &str) -> String {
    if text.parse::<i64>().is_ok() || text.parse::<bool>().is_ok() || text.parse::<f64>().is_ok_and(f64::is_finite) {
        text.to_string()
    } else {
        toml::Value::String(text.to_string()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{mask, toml_scalar};

    #[test]
    fn secrets_keep_only_what_is_not_secret() {
        assert_eq!(mask("postgres://qi:hunter2@db:5432/qi"), "postgres://qi:***@db:5432/qi");
        assert_eq!(mask("redis://:hunter2@cache:6379"), "redis://:***@cache:6379");
        assert_eq!(mask("s3cr3t-token"), "***");
    }

    #[test]
    fn values_are_written_as_toml_reads_them() {
        assert_eq!(toml_scalar("4096"), "4096");
        assert_eq!(toml_scalar("2.5"), "2.5");
        assert_eq!(toml_scalar("true"), "true");
        assert_eq!(toml_scalar("127.0.0.1:8080"), "\"127.0.0.1:8080\"");
        assert_eq!(toml_scalar("inf"), "\"inf\"");
    }
}
