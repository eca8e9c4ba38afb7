/** The shell's own commands (anything else is a tool call), for help and Tab. */
export const SHELL_COMMANDS = ['tools', 'resources', 'prompts', 'read', 'get', 'skills', 'time', 'doctor', 'restart', '.stderr', '.json', '.save', 'help', 'exit', 'quit'];

/** What `help` prints. */
export const SHELL_HELP = `TOOL key=value …          call a tool (SERVER:TOOL when two servers have it); key:=json for JSON values
tools [SERVER]            the held servers' tools and their parameters (* required)
resources [--templates]   the servers' resources          read URI          read one
prompts                   the servers' prompts            get PROMPT k=v    get one
skills [--verify]         the servers' skills             skills get|read SERVER:SKILL [FILE]
time TOOL k=v … -n N      measure a tool (latency percentiles)
doctor SERVER             diagnose a server (starts its own process)
restart [SERVER]          start a server (or the session holder) again after it went down
.stderr [SERVER]          the server's recent stderr      .json on|off      results as JSON
.save FILE                this session's tool calls as a test file (toolrun test FILE), answers as snapshots
help                      this text                       exit, quit, Ctrl-D  leave
Tab completes commands, tools, argument keys and enum values; Ctrl-C cancels the running call.`;
