"""`a2a mcp`: a2a's flows as Model Context Protocol tools (the `mcp` extra, on the official `mcp`
SDK). `tools` is the table (names, schemas, annotations, the flow each calls), headless; `server`
serves it over stdio or streamable HTTP. Nothing here is imported unless `a2a mcp` runs."""
