// LangChain JS 0.3's text ReAct parser, resolved against this package's own @langchain/core 0.3.
export { ReActSingleInputOutputParser } from 'langchain/agents/react/output_parser';
