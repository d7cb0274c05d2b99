//! `pkit bench`'s arguments: the benches, their options and the options they share.

use super::super::key::AlgorithmParser;
use super::super::token::BackendChoice;
use clap::{Args, Subcommand, ValueEnum};
use pkit::pki::alg::Algorithm;
use std::path::PathBuf;
use std::time::Duration;

/// What `bench` does about other work on the machine (`--help`, the man page's NOTES).
const BUSY_HELP: &str = "Before measuring, bench watches the CPUs for a quarter of a second \
and reads the 1-minute load average. It warns on stderr that the figures will be low and \
noisy when other work keeps at least one core (and a quarter of them) busy, or the load \
average is above the number of cores. Each report records both: the `Before:` line of its \
header, `load_before` and `busy_cores_before` in JSON.";

#[derive(Args, Debug)]
#[command(after_long_help = BUSY_HELP)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub command: BenchCommand,
}

impl BenchArgs {
    /// The options every bench takes.
    pub fn common(&self) -> &Common {
        match &self.command {
            BenchCommand::Crypto(c) => &c.common,
            BenchCommand::Parse(c) => &c.common,
            BenchCommand::X509(c) => &c.common,
            BenchCommand::Mtc(c) => &c.common,
            BenchCommand::Verify(c) => &c.common,
            BenchCommand::Compare(c) => &c.common,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Key generation, signing and verification per algorithm, and SHA-256, on one thread
    /// and on all: the raw limits the pipelines are judged against.
    Crypto(CryptoArgs),
    /// Certificate parsing (parse-only and parse+fields), one thread and all threads.
    Parse(ParseArgs),
    /// The X.509 pipeline: CA, issuance, store and OCSP, stage by stage.
    X509(X509Args),
    /// Chain validation as `pkit verify` does it (leaf, intermediate, root) beside the
    /// raw signature-verify limit, and indexing a trust store.
    Verify(VerifyArgs),
    /// The Merkle Tree Certificate pipeline: entries, tree, proofs, checkpoint,
    /// standalone certificates, stage by stage.
    Mtc(MtcArgs),
    /// Two algorithms through the X.509 pipeline, one sweep table per operation.
    Compare(CompareArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Markdown tables in the layout of the published benchmark documents.
    Markdown,
    /// A table for the terminal.
    Table,
    /// {"schema":"pkit/v1","type":"bench","items":[…]}, every cell with mean, min, max
    /// and repetitions.
    Json,
}

#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Measure each cell for at least this long after a warm-up run (e.g. 1s, 0.2s, 50ms).
    #[arg(long, value_name = "DURATION", default_value = "1s", value_parser = parse_min_time)]
    pub min_time: Duration,
    /// Worker threads for the parallel stages (default: every logical CPU).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Markdown)]
    pub format: Format,
    /// The crypto backend under measurement: OpenSSL, or a PKCS#11 module on a
    /// throwaway token (the CA's key, signatures and verification go through it).
    #[arg(long, value_enum, default_value_t = BackendChoice::Openssl)]
    pub backend: BackendChoice,
    /// With --backend nss: this NSS database instead of a throwaway one.
    #[arg(long, value_name = "DIR")]
    pub nss_db: Option<PathBuf>,
    /// With --nss-db: the database's password (pass:, env:, file:, fd:).
    #[arg(long, value_name = "SRC", requires = "nss_db")]
    pub pin: Option<String>,
}

#[derive(Args, Debug)]
pub struct CryptoArgs {
    /// Algorithms, comma-separated (default: all but RSA-3072/4096, whose key generation
    /// takes seconds).
    #[arg(long, value_name = "ALG,…", value_delimiter = ',', value_parser = AlgorithmParser)]
    pub algos: Vec<Algorithm>,
    /// Batch sizes of the Ed25519 batch verification table (run when Ed25519 is among
    /// the algorithms).
    #[arg(long, value_name = "N,…", value_delimiter = ',',
          default_values_t = pkit::bench::ed25519_batch::SIZES,
          value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u64).range(2..=65_536), |n| n as usize))]
    pub batch_sizes: Vec<usize>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args, Debug)]
pub struct ParseArgs {
    /// PEM bundles or DER certificates, each a dataset. Without files (and without
    /// --datasets): the system root store and the two generated sets.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Datasets to measure besides FILEs: roots (the system root store), ccadb (a
    /// generated CCADB-shaped hierarchy), mldsa (the same with ML-DSA keys).
    #[arg(long, value_name = "SET,…", value_delimiter = ',', value_enum)]
    pub datasets: Vec<DatasetArg>,
    /// Certificates in each generated set (the seed's CCADB extract has 9,898).
    #[arg(long, value_name = "N", default_value_t = pkit::bench::datasets::CCADB_TOTAL as u64,
          value_parser = clap::value_parser!(u64).range(1..=200_000))]
    pub dataset_size: u64,
    /// Where generated sets are cached (default: $XDG_CACHE_HOME/pkit/bench, else
    /// ~/.cache/pkit/bench).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DatasetArg {
    Roots,
    Ccadb,
    Mldsa,
}

#[derive(Args, Debug)]
pub struct PipelineOpts {
    /// Batch sizes, comma-separated.
    #[arg(long, value_name = "N,…", value_delimiter = ',',
          default_value = "1,2,4,8,16,32,64,128,256,512,1024",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub sizes: Vec<u64>,
    /// Batch sizes shown as columns of the operation table (default: every size).
    #[arg(long, value_name = "N,…", value_delimiter = ',')]
    pub columns: Vec<u64>,
}

/// `--db`, `--db-passin`: where the database stages keep their databases.
#[derive(Args, Debug)]
pub struct ScratchDbArgs {
    /// A FILE: keep the stages' SQLite databases there (x509: the CA database, made
    /// again for each batch size, so that it ends holding the largest batch; mtc: the
    /// logs, beside it); default: a temporary directory. A postgres://USER@HOST/DB URL:
    /// run every db_ stage on that server too, in schemas of the bench's own
    /// (pkit_bench_*, dropped at the end), with SQLite's figures (db_…_sqlite) beside.
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<String>,
    /// Password source for a --db server (pass:, env:, file:, fd:).
    #[arg(long, value_name = "SRC", requires = "db")]
    pub db_passin: Option<String>,
}

#[derive(Args, Debug)]
pub struct X509Args {
    /// CA and subscriber key algorithm.
    #[arg(long, value_name = "ALG", default_value = "ecdsa-p256", value_parser = AlgorithmParser)]
    pub ca_key_algo: Algorithm,
    #[command(flatten)]
    pub scratch_db: ScratchDbArgs,
    /// Replace an existing --db file.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub pipeline: PipelineOpts,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Key algorithm of the root, the intermediate and the leaves.
    #[arg(long, value_name = "ALG", default_value = "ecdsa-p256", value_parser = AlgorithmParser)]
    pub ca_key_algo: Algorithm,
    /// The trust store that root_index_build indexes.
    #[arg(long, value_name = "FILE", default_value = pkit::pki::verify::trust_store::SYSTEM_ROOTS)]
    pub roots: PathBuf,
    #[command(flatten)]
    pub pipeline: PipelineOpts,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args, Debug)]
pub struct MtcArgs {
    /// CA (issuer and cosigner) and subscriber key algorithm.
    #[arg(long, value_name = "ALG", default_value = "ecdsa-p256", value_parser = AlgorithmParser)]
    pub ca_key_algo: Algorithm,
    #[command(flatten)]
    pub scratch_db: ScratchDbArgs,
    #[command(flatten)]
    pub pipeline: PipelineOpts,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The two algorithms: A (the baseline) and B. With --backends: one or more
    /// algorithms, each run on both backends.
    #[arg(long, value_name = "A,B", value_delimiter = ',', num_args = 1,
          default_value = "ecdsa-p256,ml-dsa-65", value_parser = AlgorithmParser)]
    pub algos: Vec<Algorithm>,
    /// Compare two backends instead of two algorithms (e.g. openssl,nss): the seeds'
    /// "Backend Comparison" table at the largest of --sizes, and each token backend's
    /// stages against its raw C_Sign / C_Verify rates.
    #[arg(long, value_name = "A,B", value_delimiter = ',', value_enum)]
    pub backends: Vec<BackendChoice>,
    /// Operations to compare (default: cert_gen, cert_verify, ocsp_sign, ocsp_verify,
    /// db_insert_certs, db_read_certs).
    #[arg(long, value_name = "OP,…", value_delimiter = ',', value_parser = super::super::values::OPERATIONS)]
    pub ops: Vec<String>,
    #[command(flatten)]
    pub pipeline: PipelineOpts,
    #[command(flatten)]
    pub common: Common,
}

/// `1s`, `0.2s`, `50ms`, or bare seconds.
fn parse_min_time(s: &str) -> Result<Duration, String> {
    let (num, scale) = if let Some(v) = s.strip_suffix("ms") {
        (v, 1e-3)
    } else if let Some(v) = s.strip_suffix('s') {
        (v, 1.0)
    } else {
        (s, 1.0)
    };
    num.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0 && *v * scale <= 3600.0)
        .map(|v| Duration::from_secs_f64(v * scale))
        .ok_or_else(|| format!("expected a duration like 1s, 0.2s or 50ms, found '{s}'"))
}
