import { Shell } from '../components/Shell';
import { mount } from '../components/mount';

function Page() {
  return <Shell title="Settings">{null}</Shell>;
}

mount(Page);
