package catalogen

// domain is a subject skills are written about: the words a skill on it
// uses, the tools it runs, and the category it is filed under.
type domain struct {
	name     string
	terms    []string // nouns and phrases of the field
	tools    []string // commands and libraries, used in code fences
	category string
}

// domains are the subjects of generated skills. The words are those real
// skill catalogs use, so that term frequencies, prefixes and shared terms
// look like a real catalog's.
var domains = []domain{
	{"kubernetes", []string{"pod", "deployment", "cluster", "namespace", "ingress", "service", "helm chart", "manifest", "node", "container", "replica", "rollout", "configmap", "secret"}, []string{"kubectl", "helm", "kustomize", "k9s"}, "devops"},
	{"terraform", []string{"module", "provider", "state", "plan", "workspace", "resource", "variable", "backend", "drift", "infrastructure"}, []string{"terraform", "tflint", "terragrunt"}, "devops"},
	{"docker", []string{"image", "container", "layer", "registry", "dockerfile", "volume", "network", "compose file", "build cache"}, []string{"docker", "buildx", "compose"}, "devops"},
	{"pdf", []string{"document", "page", "form field", "table", "annotation", "text layer", "scan", "font", "metadata", "attachment"}, []string{"pdftotext", "qpdf", "pypdf", "pdfplumber"}, "documents"},
	{"excel", []string{"spreadsheet", "workbook", "sheet", "formula", "pivot table", "cell", "chart", "range", "csv export"}, []string{"openpyxl", "pandas", "xlsxwriter"}, "documents"},
	{"powerpoint", []string{"slide", "deck", "presentation", "layout", "speaker notes", "template", "theme", "chart"}, []string{"python-pptx", "marp"}, "documents"},
	{"react", []string{"component", "hook", "state", "props", "render", "context", "suspense", "server component", "reducer"}, []string{"npm", "vite", "jest", "eslint"}, "frontend"},
	{"nextjs", []string{"route", "app router", "page", "layout", "middleware", "server action", "static generation", "edge function"}, []string{"next", "vercel", "npm"}, "frontend"},
	{"python", []string{"package", "module", "virtual environment", "type hint", "decorator", "generator", "dataclass", "exception", "dependency"}, []string{"python", "pip", "uv", "pytest", "ruff", "mypy"}, "languages"},
	{"rust", []string{"crate", "borrow checker", "lifetime", "trait", "async runtime", "macro", "ownership", "cargo workspace"}, []string{"cargo", "clippy", "rustfmt"}, "languages"},
	{"go", []string{"goroutine", "channel", "module", "interface", "context", "error wrapping", "benchmark", "race detector"}, []string{"go", "gofmt", "staticcheck", "pprof"}, "languages"},
	{"typescript", []string{"type", "generic", "interface", "union type", "type guard", "declaration file", "compiler option"}, []string{"tsc", "npm", "eslint"}, "languages"},
	{"postgresql", []string{"query", "index", "table", "transaction", "vacuum", "replication", "schema", "migration", "query plan", "connection pool"}, []string{"psql", "pg_dump", "pgbench"}, "databases"},
	{"sql", []string{"query", "join", "index", "view", "stored procedure", "window function", "execution plan", "normalization"}, []string{"sqlite3", "mysql", "duckdb"}, "databases"},
	{"git", []string{"commit", "branch", "merge", "rebase", "pull request", "worktree", "tag", "conflict", "history", "remote"}, []string{"git", "gh", "pre-commit"}, "version-control"},
	{"github", []string{"pull request", "issue", "workflow", "action", "review", "release", "repository", "check run", "code owner"}, []string{"gh", "act", "git"}, "version-control"},
	{"ci", []string{"pipeline", "job", "build", "artifact", "cache", "runner", "matrix", "deployment", "test report"}, []string{"make", "just", "gh"}, "devops"},
	{"security", []string{"vulnerability", "threat model", "secret", "audit", "dependency", "policy", "encryption", "authentication", "permission", "attack surface"}, []string{"semgrep", "trivy", "gitleaks", "openssl"}, "security"},
	{"testing", []string{"unit test", "fixture", "mock", "coverage", "assertion", "test case", "regression", "snapshot", "flaky test"}, []string{"pytest", "jest", "playwright", "vitest"}, "testing"},
	{"accessibility", []string{"screen reader", "contrast", "aria attribute", "keyboard navigation", "focus order", "alt text", "wcag criterion"}, []string{"axe", "pa11y", "lighthouse"}, "frontend"},
	{"machine-learning", []string{"model", "dataset", "training run", "feature", "evaluation", "hyperparameter", "checkpoint", "inference", "embedding"}, []string{"python", "torch", "sklearn", "wandb"}, "data-science"},
	{"llm", []string{"prompt", "completion", "token", "context window", "evaluation", "fine-tuning", "retrieval", "agent", "tool call", "guardrail"}, []string{"python", "openai", "anthropic", "vllm"}, "ai"},
	{"data-analysis", []string{"dataframe", "column", "aggregation", "outlier", "distribution", "correlation", "notebook", "report", "time series"}, []string{"pandas", "polars", "jupyter", "duckdb"}, "data-science"},
	{"visualization", []string{"chart", "plot", "axis", "legend", "color palette", "dashboard", "figure", "heatmap", "scatter plot"}, []string{"matplotlib", "seaborn", "plotly", "vega"}, "data-science"},
	{"bioinformatics", []string{"sequence", "genome", "alignment", "variant", "protein", "gene expression", "read", "annotation", "phylogeny"}, []string{"samtools", "bwa", "biopython", "blast"}, "science"},
	{"chemistry", []string{"molecule", "reaction", "descriptor", "fingerprint", "conformer", "compound", "smiles string", "property"}, []string{"rdkit", "openbabel", "python"}, "science"},
	{"api", []string{"endpoint", "request", "response", "schema", "authentication", "rate limit", "pagination", "webhook", "versioning", "error code"}, []string{"curl", "httpie", "openapi-generator"}, "backend"},
	{"graphql", []string{"schema", "resolver", "query", "mutation", "subscription", "fragment", "federation"}, []string{"apollo", "graphql-codegen"}, "backend"},
	{"observability", []string{"metric", "trace", "log", "span", "alert", "dashboard", "service level objective", "sampling"}, []string{"prometheus", "grafana", "otel-collector"}, "devops"},
	{"aws", []string{"bucket", "lambda function", "iam role", "region", "vpc", "instance", "stack", "queue", "cost report"}, []string{"aws", "sam", "cdk"}, "cloud"},
	{"azure", []string{"resource group", "subscription", "function app", "storage account", "role assignment", "app service"}, []string{"az", "bicep", "func"}, "cloud"},
	{"gcp", []string{"project", "bucket", "cloud run service", "service account", "bigquery dataset", "pubsub topic"}, []string{"gcloud", "gsutil", "bq"}, "cloud"},
	{"design", []string{"design system", "typography", "color", "spacing", "component library", "mockup", "brand", "icon", "layout grid"}, []string{"figma", "storybook"}, "design"},
	{"writing", []string{"draft", "outline", "tone", "audience", "paragraph", "headline", "summary", "style guide", "edit"}, []string{"vale", "pandoc"}, "writing"},
	{"documentation", []string{"readme", "reference page", "tutorial", "changelog", "docstring", "diagram", "api reference", "guide"}, []string{"mkdocs", "sphinx", "docusaurus"}, "writing"},
	{"mermaid", []string{"diagram", "flowchart", "sequence diagram", "class diagram", "state diagram", "gantt chart", "node", "edge"}, []string{"mmdc", "mermaid-cli"}, "writing"},
	{"email", []string{"message", "inbox", "thread", "attachment", "template", "recipient", "signature", "filter"}, []string{"msmtp", "mutt"}, "productivity"},
	{"calendar", []string{"event", "meeting", "invite", "availability", "time zone", "recurrence", "reminder"}, []string{"gcalcli", "khal"}, "productivity"},
	{"slack", []string{"channel", "message", "thread", "bot", "emoji reaction", "workspace", "notification"}, []string{"slack-cli", "curl"}, "productivity"},
	{"notion", []string{"page", "database", "block", "property", "workspace", "template", "meeting note"}, []string{"notion-cli", "curl"}, "productivity"},
	{"payments", []string{"checkout", "subscription", "invoice", "refund", "customer", "payment intent", "webhook", "price", "tax"}, []string{"stripe", "curl"}, "business"},
	{"finance", []string{"forecast", "revenue", "budget", "cash flow", "valuation", "metric", "cohort", "model"}, []string{"python", "excel"}, "business"},
	{"marketing", []string{"campaign", "landing page", "audience", "conversion", "copy", "seo keyword", "newsletter"}, []string{"python"}, "business"},
	{"mobile", []string{"screen", "navigation", "gesture", "push notification", "app store", "build variant", "permission"}, []string{"xcodebuild", "gradle", "fastlane"}, "mobile"},
	{"android", []string{"activity", "fragment", "compose screen", "gradle module", "intent", "permission"}, []string{"adb", "gradle"}, "mobile"},
	{"ios", []string{"view controller", "swiftui view", "provisioning profile", "entitlement", "simulator"}, []string{"xcodebuild", "xcrun", "swift"}, "mobile"},
	{"performance", []string{"latency", "throughput", "profile", "memory usage", "cache", "bottleneck", "flame graph", "benchmark"}, []string{"perf", "pprof", "hyperfine"}, "engineering"},
	{"debugging", []string{"stack trace", "breakpoint", "log", "reproduction", "root cause", "core dump", "hypothesis", "bisect"}, []string{"gdb", "lldb", "git"}, "engineering"},
	{"code-review", []string{"pull request", "diff", "comment", "reviewer", "change", "suggestion", "approval", "style issue"}, []string{"gh", "git", "reviewdog"}, "engineering"},
	{"architecture", []string{"service", "boundary", "event", "message queue", "decision record", "scalability", "trade-off", "dependency"}, []string{"c4", "structurizr"}, "engineering"},
	{"search", []string{"index", "query", "relevance", "ranking", "tokenizer", "facet", "embedding", "vector", "synonym"}, []string{"elasticsearch", "meilisearch", "qdrant"}, "backend"},
	{"image", []string{"picture", "photo", "resolution", "crop", "filter", "thumbnail", "color space", "prompt"}, []string{"imagemagick", "pillow", "ffmpeg"}, "media"},
	{"video", []string{"clip", "frame", "codec", "subtitle", "timeline", "transcode", "thumbnail"}, []string{"ffmpeg", "ffprobe"}, "media"},
	{"audio", []string{"track", "sample rate", "waveform", "transcript", "noise", "speech"}, []string{"sox", "ffmpeg", "whisper"}, "media"},
	{"web-scraping", []string{"page", "selector", "crawler", "robots file", "rate limit", "html", "browser session"}, []string{"playwright", "curl", "scrapy"}, "data"},
	{"browser", []string{"tab", "click", "form", "screenshot", "selector", "navigation", "cookie", "session"}, []string{"playwright", "chromium", "agent-browser"}, "automation"},
	{"legal", []string{"contract", "clause", "agreement", "compliance", "policy", "privacy notice", "license"}, []string{"pandoc"}, "business"},
	{"healthcare", []string{"patient", "clinical note", "diagnosis", "treatment plan", "record", "trial", "dicom image"}, []string{"python", "pydicom"}, "science"},
	{"blockchain", []string{"smart contract", "wallet", "transaction", "token", "gas fee", "audit", "chain"}, []string{"foundry", "hardhat", "solc"}, "web3"},
	{"game", []string{"scene", "sprite", "physics", "level", "shader", "entity", "input handling"}, []string{"godot", "unity", "blender"}, "games"},
}

// actions are what a skill does to its subject.
var actions = []struct {
	verb, noun string // "review", "reviewer"
	gerund     string
}{
	{"review", "reviewer", "reviewing"}, {"deploy", "deployer", "deploying"}, {"test", "tester", "testing"},
	{"convert", "converter", "converting"}, {"generate", "generator", "generating"}, {"analyze", "analyzer", "analyzing"},
	{"migrate", "migrator", "migrating"}, {"debug", "debugger", "debugging"}, {"optimize", "optimizer", "optimizing"},
	{"audit", "auditor", "auditing"}, {"document", "writer", "documenting"}, {"monitor", "monitor", "monitoring"},
	{"extract", "extractor", "extracting"}, {"validate", "validator", "validating"}, {"design", "designer", "designing"},
	{"scaffold", "scaffolder", "scaffolding"}, {"refactor", "refactorer", "refactoring"}, {"summarize", "summarizer", "summarizing"},
	{"search", "finder", "searching"}, {"schedule", "scheduler", "scheduling"}, {"publish", "publisher", "publishing"},
	{"format", "formatter", "formatting"}, {"secure", "hardener", "securing"}, {"plan", "planner", "planning"},
	{"visualize", "visualizer", "visualizing"}, {"fix", "fixer", "fixing"}, {"automate", "automator", "automating"},
	{"benchmark", "profiler", "benchmarking"}, {"translate", "translator", "translating"}, {"clean", "cleaner", "cleaning"},
}

// nameSuffixes end skill names the way real catalogs do.
var nameSuffixes = []string{"", "", "", "patterns", "helper", "toolkit", "workflow", "guide", "best-practices", "assistant", "automation", "expert", "pro", "lite", "kit"}

// prose is the connective vocabulary of skill bodies.
var prose = []string{
	"the", "a", "this", "each", "every", "when", "before", "after", "then", "always", "never", "only", "first", "next",
	"use", "check", "run", "read", "write", "keep", "prefer", "avoid", "make", "ask", "confirm", "verify", "open", "save",
	"user", "agent", "file", "folder", "output", "input", "result", "step", "change", "error", "warning", "option", "value",
	"command", "script", "tool", "project", "team", "workflow", "task", "example", "reference", "note", "section", "list",
	"clear", "small", "large", "safe", "fast", "correct", "existing", "new", "current", "relevant", "specific", "common",
	"quickly", "carefully", "explicitly", "automatically", "manually", "locally", "again", "instead", "together", "separately",
}

// licenses appear in frontmatter with these weights (empty: no license).
var licenses = []string{"MIT", "MIT", "MIT", "Apache-2.0", "Apache-2.0", "BSD-3-Clause", "MPL-2.0", "Proprietary", "", "", ""}

// capabilityList is the USK capability vocabulary plus common customs.
var capabilityList = []string{"web_search", "document_search", "database_query", "information_retrieval", "text_summarization",
	"translation", "classification", "extraction", "text_generation", "code_generation", "image_generation", "file_management",
	"email", "calendar", "notification", "data_analysis", "visualization", "calculation", "conversion", "api_integration",
	"webhook", "automation", "code_review", "deployment", "testing"}

// skillTypes are UASP meta.type values.
var skillTypes = []string{"knowledge", "cli", "api", "hybrid"}

// syllables make the product names that give a catalog its long tail of
// rare words (tiledbvcf, flowio, pyzotero).
var syllables = []string{"ka", "zo", "ri", "lo", "mex", "tra", "vi", "nor", "qu", "dex", "flo", "io", "ly", "py", "gen", "sca", "bel", "ton", "ar", "ux", "mo", "sig", "pha", "cel", "dri", "fy", "on", "zen", "lab", "kit"}
