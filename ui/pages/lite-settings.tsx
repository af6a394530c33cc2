import { Shell } from '../components/Shell';
import { mount } from '../components/mount';

function Page() {
  return <Shell title="Lite settings">{null}</Shell>;
}

mount(Page);
