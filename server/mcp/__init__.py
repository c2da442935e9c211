"""The MCP server: Hippograph memory as Model Context Protocol tools and resources.

Built on the official ``mcp`` SDK. ``tools`` holds the typed inputs and one function per tool
(thin calls into the same pipelines the GraphQL resolvers use); ``build`` registers them on an
``MCPServer`` with tenancy, rate limits and coded errors; ``http`` mounts the streamable HTTP
transport at ``/mcp`` of the API app; ``stdio`` runs ``hippograph mcp``.
"""
